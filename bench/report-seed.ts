// The synthetic reports of the list benchmarks (bench/api-reports.ts, bench/deep-pages.ts).
import { sql } from "drizzle-orm";
import type { Db } from "../server/db/client";

export const FIRST_NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve", "Frank", "Grace", "Hugo", "Ivy", "Jack"]
  .concat(["Kara", "Liam", "Mia", "Noah", "Olga", "Paul", "Quinn", "Rosa", "Sam", "Tina"])
  .concat(["Uma", "Victor", "Wendy", "Xavier", "Yara", "Zane", "Amir", "Bea", "Chen", "Dara"])
  .concat(["Emil", "Fay", "Gus", "Hana", "Ian", "Jo", "Kofi", "Lena", "Marek", "Nia"]);
export const LAST_NAMES = [
  "Smith",
  "Jones",
  "Brown",
  "Taylor",
  "Wilson",
  "Davies",
  "Evans",
  "Thomas",
  "Johnson",
  "Roberts",
]
  .concat(["Walker", "Wright", "Robinson", "Thompson", "White", "Hughes", "Edwards", "Green", "Hall", "Wood"])
  .concat(["Harris", "Lewis", "Martin", "Jackson", "Clarke", "Clark", "Turner", "Hill", "Scott", "Cooper"])
  .concat(["Morris", "Ward", "Moore", "King", "Watson", "Baker", "Harrison", "Morgan", "Patel", "Young"])
  .concat(["Allen", "Mitchell", "James", "Anderson", "Phillips", "Lee", "Bell", "Parker", "Davis", "Nguyen"]);

/** One INSERT ... SELECT: names from 40 x 50 first and last names, 13 study types, three years of dates. */
export async function seedReports(db: Db, clinicId: number, count: number) {
  const first = FIRST_NAMES;
  const last = LAST_NAMES;
  const types = ["Lower Limb Venous", "Upper Limb Venous", "Lower Limb Arterial", "Upper Limb Arterial"]
    .concat(["Carotid Duplex", "Vertebral Duplex", "Abdominal Aorta", "Renal Duplex", "Mesenteric Duplex"])
    .concat(["DVT Assessment", "AV Fistula/Graft", "Post Endovenous Intervention", "Transcranial Doppler"]);
  const arr = (items: string[]) => sql.raw(`array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(",")}]`);
  await db.execute(sql`
    insert into reports (clinic_id, patient_name, patient_dob, exam_date, study_type, indication, findings,
                         impression, is_draft, generated_at, updated_at)
    select ${clinicId},
           (${arr(first)})[1 + (i % ${first.length})] || ' ' || (${arr(last)})[1 + ((i / ${first.length}) % ${last.length})],
           date '1935-01-01' + (i * 37 % 25000),
           date '2023-01-01' + (i % 1100),
           (${arr(types)})[1 + (i % ${types.length})],
           'Follow-up of known disease.',
           'Right internal carotid artery: proximal PSV 123 cm/s, EDV 26 cm/s. Left internal carotid artery: PSV 80 cm/s.',
           'Right internal carotid artery: 50-69% stenosis.',
           i % 3 <> 0,
           timestamptz '2023-01-01 00:00:00+00' + make_interval(mins => i * 15),
           now()
    from generate_series(1, ${count}) as s(i)`);
  await db.execute(sql`analyze reports`);
}
