import type { FastifyReply } from "fastify";

/** Private files: never cached by shared caches or the browser, never content-sniffed. */
export function sendPrivateFile(reply: FastifyReply, data: Buffer, mimeType: string, downloadName?: string) {
  reply
    .header("content-type", mimeType)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
  if (downloadName) {
    reply.header("content-disposition", `attachment; filename="${downloadName.replace(/[^\w.-]/g, "_")}"`);
  }
  return reply.send(data);
}
