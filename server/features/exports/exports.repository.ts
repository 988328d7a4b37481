import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { clinics, physicians, reports, reportTemplates, users } from "../../db/schema";

/**
 * Read-only access for exports: a document reads across the report, template, clinic, physician and
 * user aggregates (docs/decisions/003-export-read-model.md). Every query is scoped to the clinic, and
 * soft-deleted reports are invisible. Nothing here writes.
 */

export function findClinicTemplate(db: Queryable, clinicId: number, templateId: number) {
  return db
    .select()
    .from(reportTemplates)
    .where(and(eq(reportTemplates.id, templateId), eq(reportTemplates.clinicId, clinicId)))
    .then((rows) => rows[0]);
}

/** The clinic's default template; when several are marked, the most recently changed wins. */
export function findDefaultTemplate(db: Queryable, clinicId: number) {
  return db
    .select()
    .from(reportTemplates)
    .where(and(eq(reportTemplates.clinicId, clinicId), eq(reportTemplates.isDefault, true)))
    .orderBy(desc(reportTemplates.updatedAt), desc(reportTemplates.id))
    .limit(1)
    .then((rows) => rows[0]);
}

/**
 * The live report of the clinic with its clinic and its physician, in one query (each apart was a round trip of
 * every export: issue 27). The physician is joined within the same clinic only; a missing one is null.
 */
export function findExportReport(db: Queryable, clinicId: number, reportId: number) {
  return db
    .select({
      report: reports,
      clinic: {
        name: clinics.name,
        address: clinics.address,
        city: clinics.city,
        state: clinics.state,
        zipCode: clinics.zipCode,
        phone: clinics.phone,
        logoUrl: clinics.logoUrl,
        reportSpelling: clinics.reportSpelling,
      },
      physician: {
        id: physicians.id,
        name: physicians.name,
        title: physicians.title,
        specialty: physicians.specialty,
        signatureUrl: physicians.signatureUrl,
      },
    })
    .from(reports)
    .innerJoin(clinics, eq(clinics.id, reports.clinicId))
    .leftJoin(physicians, and(eq(physicians.id, reports.physicianId), eq(physicians.clinicId, reports.clinicId)))
    .where(and(eq(reports.id, reportId), eq(reports.clinicId, clinicId), isNull(reports.deletedAt)))
    .then((rows) => rows[0]);
}

/** Names of the clinic's users among ids (signer, amender); users of other clinics are not named. */
export async function findUserNames(db: Queryable, clinicId: number, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.clinicId, clinicId)));
}
