import { eq } from "drizzle-orm";
import { clinics, physicians } from "../db/schema";
import { sampleLogoPng, sampleSignaturePng } from "../features/exports/export-samples";
import { saveFile } from "../features/files/files.service";
import type { TestApp } from "./test-app";

type PhysicianValues = Partial<Omit<typeof physicians.$inferInsert, "clinicId" | "signatureUrl">>;
type ClinicValues = Partial<Omit<typeof clinics.$inferInsert, "id" | "logoUrl">>;

/**
 * A physician "Dr. Maria Chen" with a drawn signature in the clinic's file store, as the export, archive and
 * signing tests and benches need. With `letterhead`, the clinic also gets the sample logo and those fields.
 */
export async function physicianWithSignature(
  t: TestApp,
  clinicId: number,
  { physician = {}, letterhead }: { physician?: PhysicianValues; letterhead?: ClinicValues } = {},
): Promise<typeof physicians.$inferSelect> {
  const { db } = t.deps.database;
  const store = t.deps.fileStore;
  const signature = await saveFile(db, store, {
    clinicId,
    kind: "signature",
    data: await sampleSignaturePng(),
    mimeType: "image/png",
  });
  if (letterhead) {
    const logo = await saveFile(db, store, {
      clinicId,
      kind: "logo",
      data: await sampleLogoPng(),
      mimeType: "image/png",
    });
    await db
      .update(clinics)
      .set({ ...letterhead, logoUrl: logo.url })
      .where(eq(clinics.id, clinicId));
  }
  const [row] = await db
    .insert(physicians)
    .values({ name: "Dr. Maria Chen", title: "MD", ...physician, clinicId, signatureUrl: signature.url })
    .returning();
  return row!;
}
