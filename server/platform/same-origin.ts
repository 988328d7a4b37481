import type { FastifyInstance } from "fastify";
import { AppError } from "../../domain/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookie sessions need CSRF protection beyond SameSite=Lax: a state-changing request whose Origin
 * (or Sec-Fetch-Site) says it comes from another site is refused.
 */
export function installSameOriginGuard(app: FastifyInstance, publicUrl: string | undefined): void {
  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.headers["sec-fetch-site"] === "cross-site") {
      throw new AppError("FORBIDDEN", "Cross-site requests are not allowed");
    }
    const origin = request.headers.origin;
    if (!origin) return;
    const allowed = new Set([`http://${request.headers.host}`, `https://${request.headers.host}`]);
    if (publicUrl) allowed.add(new URL(publicUrl).origin);
    if (!allowed.has(origin)) throw new AppError("FORBIDDEN", "Cross-origin requests are not allowed");
  });
}
