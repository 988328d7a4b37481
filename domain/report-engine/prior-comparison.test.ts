import { describe, expect, it } from "vitest";
import { type Conclusion, type Measurement, type Study, studySchema } from "../contracts/study";
import { generateDraft } from "./generate-draft";
import { guardLlmText } from "./llm-guard";
import { aorticGrowth, comparePrior, maxAorticDiameter, withinSixMonths } from "./prior-comparison";
import { m } from "./testing/study-builders";

const ica = (side: "left" | "right", grade: string): Conclusion =>
  ({ site: "ICA", side, category: "carotid_stenosis", grade, basis: "" }) as Conclusion;
const aorta = (mm: number, unit = "mm"): Measurement => ({
  site: "AO_PROX",
  side: null,
  parameter: "DIAMETER_MM",
  value: mm,
  unit,
});

describe("aortic growth and the surveillance rule (>= 10 mm/year, or >= 5 mm within 6 months, refers)", () => {
  it("5 mm within 6 months refers; 4.9 mm does not", () => {
    expect(aorticGrowth(40, "2024-01-15", 45, "2024-07-15").rapid).toBe(true);
    expect(aorticGrowth(40, "2024-01-15", 44.9, "2024-07-15").rapid).toBe(false);
  });

  it("6 months ends on the same day 6 calendar months later (the month's last day when shorter)", () => {
    expect(withinSixMonths("2024-01-15", "2024-07-15")).toBe(true);
    expect(withinSixMonths("2024-01-15", "2024-07-16")).toBe(false);
    expect(withinSixMonths("2024-08-31", "2025-02-28")).toBe(true);
    expect(withinSixMonths("2024-08-31", "2025-03-01")).toBe(false);
  });

  it("a day past 6 months, the rate decides: 5 mm is then under 10 mm/year", () => {
    const g = aorticGrowth(40, "2024-01-15", 45, "2024-07-16");
    expect(g.mmPerYear).toBeLessThan(10);
    expect(g.rapid).toBe(false);
  });

  it("10 mm/year refers, just under does not", () => {
    // 2023-03-01 to 2024-02-29 is 365 days: 10 mm is 10.007 mm/year; 9.99 mm is 9.997.
    expect(aorticGrowth(40, "2023-03-01", 50, "2024-02-29").rapid).toBe(true);
    expect(aorticGrowth(40, "2023-03-01", 49.99, "2024-02-29").rapid).toBe(false);
    // Two years, exactly 20 mm (731 days: 9.993 mm/year) does not; 20.1 mm (10.04) does.
    expect(aorticGrowth(40, "2022-03-01", 60, "2024-03-01").rapid).toBe(false);
    expect(aorticGrowth(40, "2022-03-01", 60.1, "2024-03-01").rapid).toBe(true);
  });

  it("within 6 months a small growth is not annualised into a referral", () => {
    const g = aorticGrowth(40, "2024-01-01", 42, "2024-02-01");
    expect(g.mmPerYear).toBeGreaterThan(10);
    expect(g.rapid).toBe(false);
  });

  it("reads the largest aortic diameter, converting centimetres", () => {
    expect(maxAorticDiameter([aorta(3.8, "cm"), aorta(36), { ...aorta(20), site: "CIA" }])).toBe(38);
    expect(maxAorticDiameter([])).toBeNull();
  });
});

describe("comparison of stenosis grades", () => {
  const compare = (now: Conclusion[], before: Conclusion[]) =>
    comparePrior(
      { examDate: "2025-03-01", conclusions: now, measurements: [] },
      { examDate: "2024-03-01", conclusions: before, measurements: [] },
    )!.impression;

  it("says new, progressed, unchanged and less severe, and names the prior's date", () => {
    expect(compare([ica("right", "50_69")], [ica("right", "normal")])).toBe(
      "Compared with the prior study of 2024-03-01: right internal carotid artery: new 50-69% stenosis (previously no stenosis).",
    );
    expect(compare([ica("right", "70_99")], [ica("right", "50_69")])).toBe(
      "Compared with the prior study of 2024-03-01: right internal carotid artery: progressed from 50-69% stenosis to 70-99% stenosis.",
    );
    expect(compare([ica("left", "lt50")], [ica("left", "lt50")])).toMatch(
      /left internal carotid artery: less than 50% stenosis, unchanged\.$/,
    );
    expect(compare([ica("left", "lt50")], [ica("left", "50_69")])).toMatch(
      /less than 50% stenosis, previously 50-69% stenosis/,
    );
  });

  it("does not compare a vessel the prior did not grade, nor the other side", () => {
    expect(compare([ica("right", "70_99")], [ica("left", "normal")])).toBe(
      "Compared with the prior study of 2024-03-01: no change in the graded results.",
    );
  });

  it("a prior that is not earlier than this study is not compared", () => {
    expect(
      comparePrior(
        { examDate: "2024-03-01", conclusions: [], measurements: [] },
        { examDate: "2024-03-01", conclusions: [], measurements: [] },
      ),
    ).toBeNull();
  });
});

describe("the draft with a prior study", () => {
  const study: Study = studySchema.parse({
    scanType: "Abdominal Aorta",
    measurements: [m("AO_PROX", null, "DIAMETER_MM", 46)],
  });
  const prior = { examDate: "2024-09-01", conclusions: [], measurements: [aorta(40)] };

  it("places the comparison after the results and the referral first among the recommendations", () => {
    const draft = generateDraft(study, { comparison: { examDate: "2025-02-20", prior } });
    const lines = draft.impression.split("\n");
    const at = lines.findIndex((l) => l.startsWith("Compared with the prior study of 2024-09-01:"));
    expect(at).toBeGreaterThan(0);
    expect(lines[at]).toContain("maximum diameter 46 mm, previously 40 mm, growth 6 mm in 172 days");
    expect(lines[at]).toContain("rapid growth");
    expect(lines[at + 1]).toMatch(/^Rapid aneurysm growth .*vascular surgery referral/);
    expect(lines.at(-1)).toMatch(/^Criteria:/);
  });

  it("without a prior the draft is as before", () => {
    expect(generateDraft(study).impression).not.toMatch(/prior/);
  });

  it("the language-model guard accepts the engine's own text with the comparison", () => {
    const draft = generateDraft(study, { comparison: { examDate: "2025-02-20", prior } });
    expect(guardLlmText(study, draft, draft)).toEqual({ ok: true });
  });
});
