import type { ConclusionCategory } from "./vocabulary";

// How each grade may be worded in an impression. The first pattern of every grade matches the engine's
// own phrase (grade-phrases.ts); the others are the usual clinical synonyms. Text that words a grade in
// a way not listed here is not recognised as a grade, and then fails the check that every conclusion
// of the engine is stated.

type Lexicon = { [C in ConclusionCategory]: Record<string, readonly RegExp[]> };

const range = (a: number, b: number) => new RegExp(`\\b${a}\\s*%?\\s*(?:-|–|to)\\s*${b}\\s*%`, "i");
const lessThan = (n: number) => new RegExp(`(?:less than|under|below|<)\\s*${n}\\s*%`, "i");
const atLeast = (n: number) =>
  new RegExp(
    `(?:≥|>=|greater than or equal to|at least|more than|greater than|>)\\s*${n}\\s*%|\\b${n}\\s*%\\s*or (?:greater|more)`,
    "i",
  );
const occlusion = /(?<!near[- ]?)\b(?:total |complete )?occlu(?:sion|ded)\b/i;

export const gradeLexicon: Lexicon = {
  carotid_stenosis: {
    normal: [/\bno (?:significant |haemodynamically significant |hemodynamically significant )?stenosis\b/i],
    lt50: [lessThan(50)],
    "50_69": [range(50, 69)],
    "70_99": [range(70, 99), atLeast(70)],
    near_occlusion: [/\bnear[- ]?occlusion\b/i, /\bstring sign\b/i],
    occlusion: [occlusion],
  },
  vertebral_flow: {
    antegrade: [/\bantegrade\b/i],
    partial_steal: [/\bto-and-fro\b|\bpartial (?:subclavian )?steal\b|\balternating flow\b/i],
    retrograde: [/\bretrograde\b|\bcomplete (?:subclavian )?steal\b|\breversed flow\b/i],
    absent: [/\babsent flow\b|\bno flow\b/i],
  },
  arterial_stenosis: {
    none: [/\bno (?:significant |haemodynamically significant |hemodynamically significant )?stenosis\b/i],
    lt50: [lessThan(50)],
    "50_74": [range(50, 74)],
    "75_99": [range(75, 99)],
    occlusion: [occlusion],
  },
  abi: {
    noncompressible: [/\bnon-?compressible (?:arteries|vessels)\b|\bnot diagnostic\b/i],
    normal: [/\bnormal (?:resting )?(?:ankle[- ]brachial ind(?:ex|ices)|ABI)\b/i],
    borderline: [/\bborderline\b/i],
    mild_moderate: [/\bmild (?:to |-)?moderate\b/i],
    severe: [/\bsevere (?:peripheral arterial disease|PAD|ischaemia|ischemia)\b/i],
  },
  dvt: {
    absent: [
      /\bno (?:evidence of )?(?:deep vein |deep venous |venous |superficial vein |superficial venous )?(?:thrombosis|thrombus)\b(?! extension)|\bno DVT\b/i,
    ],
    present: [
      /(?<!\bno (?:evidence of )?(?:deep vein |deep venous |venous |superficial vein |superficial venous )?)\b(?:thrombosis|thrombus)\b(?! extension)|(?<!\bno )\bDVT\b(?! assessment)/i,
    ],
  },
  venous_reflux: {
    absent: [/\bno (?:significant |pathological |pathologic )?reflux\b|\bcompetent\b/i],
    present: [
      /(?<!\bno (?:significant |pathological |pathologic )?)\b(?:pathological |pathologic |significant )?reflux\b(?! time)|\bincompetent\b/i,
    ],
  },
  perforator: {
    normal: [/\bperforator not pathological\b|\bcompetent perforator\b|\bnormal perforator\b/i],
    pathologic: [/(?<!not )\bpathologic(?:al)? perforator\b|\bincompetent perforator\b/i],
  },
  aortic_diameter: {
    normal: [/\bnormal (?:calibre|caliber|diameter)\b/i],
    ectatic: [/\bectatic\b|\bectasia\b/i],
    aneurysm_small: [/\bsmall (?:abdominal aortic )?aneurysm\b|\bsmall AAA\b/i],
    aneurysm_medium: [/\b(?:medium|moderate)(?:-sized)? (?:abdominal aortic )?aneurysm\b|\bmedium AAA\b/i],
    aneurysm_large: [/\blarge (?:abdominal aortic )?aneurysm\b|\blarge AAA\b/i],
  },
  renal_stenosis: {
    lt60: [lessThan(60)],
    ge60: [atLeast(60)],
    occlusion: [occlusion],
  },
  mesenteric_stenosis: {
    lt70: [lessThan(70)],
    ge70: [atLeast(70)],
    occlusion: [occlusion],
  },
  avf_maturity: {
    mature: [/(?<!\bim|\bnot (?:yet )?)\bmature\b/i],
    immature: [/\bimmature\b|\bnot (?:yet )?mature\b/i],
  },
  ehit: {
    class1: [/\bEHIT (?:class )?(?:1|I)\b(?:\s*\([^)]*\))?/i],
    class2: [/\bEHIT (?:class )?(?:2|II)\b(?:\s*\([^)]*\))?/i],
    class3: [/\bEHIT (?:class )?(?:3|III)\b(?:\s*\([^)]*\))?/i],
    class4: [/\bEHIT (?:class )?(?:4|IV)\b(?:\s*\([^)]*\))?/i],
  },
  tcd_vasospasm: {
    none: [/\bno (?:evidence of )?vasospasm\b/i],
    mild: [/\bmild vasospasm\b/i, /\bmean flow velocity in the mild range\b/i],
    moderate: [/\bmoderate vasospasm\b/i, /\bmean flow velocity in the moderate range\b/i],
    severe: [/\bsevere vasospasm\b/i, /\bmean flow velocity in the severe range\b/i],
  },
  lindegaard: {
    hyperemia: [/\bLindegaard ratio (?:below|under|less than|<)\s*3\b[^.;]*|\bhyperaemi\w*|\bhyperemi\w*/i],
    vasospasm: [/\bLindegaard ratio (?:of )?(?:between )?3\s*(?:to|-|–|and)\s*6\b,?(?: vasospasm pattern)?/i],
    severe_vasospasm: [/\bLindegaard ratio (?:above|over|greater than|>)\s*6\b,?(?: severe vasospasm pattern)?/i],
  },
};
