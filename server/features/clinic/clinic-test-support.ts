import { randomUUID } from "node:crypto";
import { count } from "drizzle-orm";
import sharp from "sharp";
import { storedFiles, users } from "../../db/schema";
import { createSession } from "../../platform/sessions";
import type { TestApp } from "../../test-support/test-app";

/** A signed-in user with the sonographer role in the given clinic (no invitation flow needed). */
export async function signedInSonographer(t: TestApp, clinicId: number): Promise<{ cookie: string }> {
  const id = randomUUID();
  await t.deps.database.db
    .insert(users)
    .values({ id, email: `sono-${id}@clinic.test`, clinicId, role: "sonographer", firstName: "Sam" });
  const { token } = await createSession(t.deps.database.db, { userId: id }, t.deps.config.session);
  return { cookie: `sid=${token}` };
}

export async function storedFileCount(t: TestApp): Promise<number> {
  const [row] = await t.deps.database.db.select({ n: count() }).from(storedFiles);
  return row?.n ?? 0;
}

/** A real image of the given format, so the content check sees genuine bytes. */
export function testImage(format: "png" | "jpeg" | "gif" | "webp" = "png", width = 40, height = 20): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 40, b: 200 } } })
    .toFormat(format)
    .toBuffer();
}

export const renamedExecutable = Buffer.concat([
  Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff]),
  Buffer.alloc(2048, 0),
]);

export const svgWithScript = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
);

/** Starts like a PNG (so a magic-byte check alone would accept it) but is not a decodable image. */
export const fakePngHeader = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
  Buffer.from("<script>alert(1)</script>".repeat(20)),
]);

/** Just over the 10 MB limit; a valid PNG signature in front so only the size can refuse it. */
export const elevenMegabytes = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(11 * 1024 * 1024, 1)]);
