import type { ConclusionCategory, GradeOf } from "./vocabulary";

// The impression's wording of each grade. The language-model guard reads the same table, so a
// rephrased impression must still carry these words for each conclusion.

type PhraseTable = { [C in ConclusionCategory]: Record<GradeOf<C>, string> };

export const gradePhrases: PhraseTable = {
  carotid_stenosis: {
    normal: "no stenosis",
    lt50: "less than 50% stenosis",
    "50_69": "50-69% stenosis",
    "70_99": "70-99% stenosis",
    near_occlusion: "near occlusion",
    occlusion: "occlusion",
  },
  vertebral_flow: {
    antegrade: "antegrade flow",
    partial_steal: "to-and-fro flow, partial subclavian steal",
    retrograde: "retrograde flow, complete subclavian steal",
    absent: "absent flow",
  },
  arterial_stenosis: {
    none: "no stenosis",
    lt50: "less than 50% stenosis",
    "50_74": "50-74% stenosis",
    "75_99": "75-99% stenosis",
    occlusion: "occlusion",
  },
  abi: {
    noncompressible: "non-compressible arteries, ankle-brachial index not diagnostic",
    normal: "normal ankle-brachial index",
    borderline: "borderline ankle-brachial index",
    mild_moderate: "mild to moderate peripheral arterial disease by ankle-brachial index",
    severe: "severe peripheral arterial disease by ankle-brachial index",
  },
  dvt: {
    absent: "no thrombosis",
    present: "thrombosis",
  },
  venous_reflux: {
    absent: "no pathological reflux",
    present: "pathological reflux",
  },
  perforator: {
    normal: "perforator not pathological",
    pathologic: "pathological perforator",
  },
  aortic_diameter: {
    normal: "normal caliber",
    ectatic: "ectatic, not aneurysmal",
    aneurysm_small: "small abdominal aortic aneurysm",
    aneurysm_medium: "medium abdominal aortic aneurysm",
    aneurysm_large: "large abdominal aortic aneurysm",
  },
  renal_stenosis: {
    lt60: "less than 60% stenosis",
    ge60: "60% or greater stenosis",
    occlusion: "occlusion",
  },
  mesenteric_stenosis: {
    lt70: "less than 70% stenosis",
    ge70: "70% or greater stenosis",
    occlusion: "occlusion",
  },
  avf_maturity: {
    mature: "mature access",
    immature: "immature access",
  },
  ehit: {
    class1: "EHIT class 1",
    class2: "EHIT class 2",
    class3: "EHIT class 3",
    class4: "EHIT class 4",
  },
  tcd_vasospasm: {
    none: "no vasospasm",
    mild: "mild vasospasm",
    moderate: "moderate vasospasm",
    severe: "severe vasospasm",
  },
  lindegaard: {
    hyperemia: "Lindegaard ratio below 3 (hyperemia rather than vasospasm)",
    vasospasm: "Lindegaard ratio 3 to 6, vasospasm pattern",
    severe_vasospasm: "Lindegaard ratio above 6, severe vasospasm pattern",
  },
};

export function gradePhrase<C extends ConclusionCategory>(category: C, grade: GradeOf<C>): string {
  return (gradePhrases[category] as Record<string, string>)[grade] ?? grade;
}
