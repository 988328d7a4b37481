import { and, asc, eq, gte, isNotNull, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { clinics, physicians, reports } from "../../db/schema";

/** A clinic's live drafts (never deleted, not signed), optionally one physician's (null: unassigned). */
const awaiting = (clinicId: number, physicianId?: number | null): SQL =>
  and(
    eq(reports.clinicId, clinicId),
    isNull(reports.deletedAt),
    eq(reports.isFinalized, false),
    physicianId === undefined
      ? undefined
      : physicianId === null
        ? isNull(reports.physicianId)
        : eq(reports.physicianId, physicianId),
  )!;

/** At most this many drafts are listed per worklist answer (a clinic's backlog is far smaller). */
export const WORKLIST_LIMIT = 2000;

/** The drafts awaiting a signature, oldest exam first (a draft without an exam date by its generation). */
export async function findAwaitingDrafts(
  db: Queryable,
  clinicId: number,
  options: { physicianId?: number | null; limit?: number } = {},
) {
  const query = db
    .select({
      id: reports.id,
      patientName: reports.patientName,
      patientDob: reports.patientDob,
      mrn: reports.mrn,
      studyType: reports.studyType,
      examDate: reports.examDate,
      generatedAt: reports.generatedAt,
      updatedAt: reports.updatedAt,
      physicianId: reports.physicianId,
      worksheetId: reports.worksheetId,
      digitalWorksheetId: reports.digitalWorksheetId,
      warnings: reports.warnings,
      isAmended: reports.isAmended,
      amendedAt: reports.amendedAt,
    })
    .from(reports)
    .where(awaiting(clinicId, options.physicianId))
    .orderBy(sql`coalesce(${reports.examDate}, (${reports.generatedAt} at time zone 'UTC')::date)`, asc(reports.id));
  return options.limit ? query.limit(options.limit) : query;
}
export type AwaitingDraftRow = Awaited<ReturnType<typeof findAwaitingDrafts>>[number];

export async function listClinicPhysicians(db: Queryable, clinicId: number) {
  return db
    .select({ id: physicians.id, name: physicians.name, userId: physicians.userId })
    .from(physicians)
    .where(eq(physicians.clinicId, clinicId))
    .orderBy(asc(physicians.name), asc(physicians.id));
}

/** The physician record the account signs as, in this clinic (at most one). */
export async function findPhysicianOfUser(db: Queryable, clinicId: number, userId: string) {
  const [row] = await db
    .select({ id: physicians.id, name: physicians.name, userId: physicians.userId })
    .from(physicians)
    .where(and(eq(physicians.clinicId, clinicId), eq(physicians.userId, userId)));
  return row;
}

export async function findTurnaroundTarget(db: Queryable, clinicId: number): Promise<number> {
  const [row] = await db.select({ days: clinics.turnaroundTargetDays }).from(clinics).where(eq(clinics.id, clinicId));
  return row?.days ?? 2;
}

/** Reports first signed within [start, end) (instants), with what turnaround needs. */
export async function findFirstSigned(db: Queryable, clinicId: number, start: Date, end: Date) {
  return db
    .select({
      physicianId: reports.physicianId,
      examDate: reports.examDate,
      generatedAt: reports.generatedAt,
      firstFinalizedAt: reports.firstFinalizedAt,
    })
    .from(reports)
    .where(
      and(
        eq(reports.clinicId, clinicId),
        isNull(reports.deletedAt),
        isNotNull(reports.firstFinalizedAt),
        gte(reports.firstFinalizedAt, start),
        lt(reports.firstFinalizedAt, end),
      ),
    );
}
