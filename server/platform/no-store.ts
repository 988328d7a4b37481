import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";

/**
 * Every API answer (and /metrics) is `no-store` unless its route chose a stricter value (files send
 * `private, no-store`): lists, reports and worksheets carry patient data, and a shared browser or proxy cache
 * must not keep them. Done once here rather than route by route, so a new route cannot forget it.
 */
export function installNoStore(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    const url = request.url.toLowerCase();
    if (
      (url.startsWith("/api/") || url === "/api" || url.startsWith("/metrics")) &&
      !reply.hasHeader("cache-control")
    ) {
      reply.header("cache-control", "no-store");
    }
    return payload;
  });
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** `Authorization: Bearer <token>` compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? "")?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}
