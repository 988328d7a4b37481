import { and, desc, eq, isNull, lt, ne, or, type SQL, sql } from "drizzle-orm";
import type { PriorReportAnswer } from "../../../domain/contracts/reports";
import {
  type Conclusion,
  conclusionSchema,
  type Measurement,
  measurementSchema,
} from "../../../domain/contracts/study";
import { notFound } from "../../../domain/errors";
import type { PriorStudy } from "../../../domain/report-engine/prior-comparison";
import type { Db, Queryable } from "../../db/client";
import { reports } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";

// The patient's prior study (issue 31 item 11): the latest finalized (signed, or signed after an amendment) report
// of the same scan type in the same clinic with an earlier exam date, for the same patient: the same MRN, or the
// same name (case and spacing aside) and date of birth. Never another clinic's: every query filters by clinic.

export type PriorLookup = {
  patientName: string;
  patientDob: string | null;
  mrn: string | null;
  studyType: string;
  examDate: string | null;
  /** The report itself, when looking for the prior of a stored report. */
  excludeId?: number;
};

const normalisedName = (column: SQL | typeof reports.patientName) =>
  sql`regexp_replace(lower(trim(${column})), '[[:space:]]+', ' ', 'g')`;

export async function findPriorReport(db: Queryable, clinicId: number, lookup: PriorLookup) {
  if (!lookup.examDate) return null;
  const mrn = lookup.mrn?.trim();
  const name = lookup.patientName.trim().toLowerCase().replace(/\s+/g, " ");
  const samePatient = or(
    mrn ? sql`lower(trim(${reports.mrn})) = ${mrn.toLowerCase()}` : undefined,
    name && lookup.patientDob
      ? and(sql`${normalisedName(reports.patientName)} = ${name}`, eq(reports.patientDob, lookup.patientDob))
      : undefined,
  );
  if (!samePatient) return null;
  const [row] = await db
    .select()
    .from(reports)
    .where(
      and(
        eq(reports.clinicId, clinicId),
        isNull(reports.deletedAt),
        eq(reports.isFinalized, true),
        eq(reports.studyType, lookup.studyType),
        lt(reports.examDate, lookup.examDate),
        lookup.excludeId ? ne(reports.id, lookup.excludeId) : undefined,
        samePatient,
      ),
    )
    .orderBy(desc(reports.examDate), desc(reports.id))
    .limit(1);
  return row ?? null;
}

type PriorRow = NonNullable<Awaited<ReturnType<typeof findPriorReport>>>;

/** The prior as the engine compares it: stored grades and measurements that still parse. */
export function priorStudyOf(row: PriorRow): PriorStudy {
  const conclusions = (Array.isArray(row.conclusions) ? row.conclusions : []).flatMap((c): Conclusion[] => {
    const parsed = conclusionSchema.safeParse(c);
    return parsed.success ? [parsed.data] : [];
  });
  const measurements = row.measurements
    ? row.measurements.flatMap((m): Measurement[] => {
        const parsed = measurementSchema.safeParse(m);
        return parsed.success ? [parsed.data] : [];
      })
    : null;
  return { examDate: row.examDate!, conclusions, measurements };
}

/** GET /api/reports/{id}/prior: the prior the report is compared with, to show beside it (null when none). */
export async function priorOfReport(db: Db, ctx: Ctx, id: number): Promise<PriorReportAnswer> {
  assertCan(ctx, "report:read");
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.clinicId, ctx.clinicId), eq(reports.id, id), isNull(reports.deletedAt)));
  if (!report) throw notFound("Report");
  // The prior the draft was compared with, as recorded when it was generated; else the latest one now.
  const [recorded] = report.comparedPriorId
    ? await db
        .select()
        .from(reports)
        .where(
          and(eq(reports.clinicId, ctx.clinicId), eq(reports.id, report.comparedPriorId), isNull(reports.deletedAt)),
        )
    : [];
  const prior = recorded ?? (await findPriorReport(db, ctx.clinicId, { ...report, excludeId: report.id }));
  if (!prior) return { prior: null };
  await db.transaction((tx) =>
    recordAudit(tx, {
      action: "report.viewed",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "report",
      entityId: prior.id,
      details: { asPriorOf: id },
      ip: ctx.ip,
      requestId: ctx.requestId,
    }),
  );
  return {
    prior: {
      id: prior.id,
      examDate: prior.examDate!,
      studyType: prior.studyType,
      status: prior.isAmended ? "amended" : "finalized",
      finalizedAt: prior.finalizedAt?.toISOString() ?? null,
      indication: prior.indication,
      findings: prior.findings,
      impression: prior.impression,
      comparedInDraft: comparedInDraft(report, prior),
    },
  };
}

/**
 * Whether the draft was generated against this prior. Reports drafted before the prior was recorded
 * (compared_prior_id) are judged by the engine's own comparison line naming the prior's date.
 */
function comparedInDraft(
  report: { comparedPriorId: number | null; impression: string },
  prior: { id: number; examDate: string | null },
): boolean {
  if (report.comparedPriorId !== null) return report.comparedPriorId === prior.id;
  return report.impression.includes(`Compared with the prior study of ${prior.examDate}`);
}
