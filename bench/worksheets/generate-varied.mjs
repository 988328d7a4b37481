#!/usr/bin/env node
// Varied-layout vascular worksheet generator with ground truth for every field (issue 23 item 2).
//
// Derived from /work/shared/worksheets/generate-worksheets.mjs (same handwriting, photo effects and measurement
// tables), but every sheet draws its own form: title, label wordings and their order, one or two columns, values
// written right of the label, below it, in a boxed cell or in a key/value table, a name as one field or split into
// surname and given names, optional header fields, and the comments section's own label.
//
//   node bench/worksheets/generate-varied.mjs --seed 101 --count 40 --out /tmp/varied-101 [--pdf-every 7]
//
// Writes ws-<clean|noisy>-NNN.{png,jpg,json}, some .pdf, and manifest.json (the first half clean, the second noisy).
// Ground truth: patientName/patientNameTokens/patientDob/examDate as the original generator, plus `header`
// { indication, referringPhysician, mrn, sonographer, sex ("male"/"female"), comments }, null when the sheet has no
// such field, and `form` (how the sheet was laid out). Same seed, fonts and package versions: same files.
// Needs Debian's fonts (see /work/shared/worksheets/README.md); @napi-rs/canvas, sharp and pdfkit come with the repo.

import fs from "node:fs";
import path from "node:path";
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import PDFDocument from "pdfkit";
import sharp from "sharp";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, arr) => {
    if (a.startsWith("--")) acc.push([a.slice(2), arr[i + 1] && !arr[i + 1].startsWith("--") ? arr[i + 1] : "true"]);
    return acc;
  }, []),
);
const SEED = Number(args.seed ?? 101);
const COUNT = Number(args.count ?? 40);
const OUT = path.resolve(args.out ?? "varied");
const PDF_EVERY = Number(args["pdf-every"] ?? 7);
fs.mkdirSync(OUT, { recursive: true });

function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function makeRng(seed) {
  const r = mulberry32(seed);
  return {
    f: (a = 0, b = 1) => a + (b - a) * r(),
    i: (a, b) => Math.floor(a + (b - a + 1) * r()),
    pick: (arr) => arr[Math.floor(r() * arr.length)],
    chance: (p) => r() < p,
    gauss: () => {
      let u = 0;
      let v = 0;
      while (u === 0) u = r();
      while (v === 0) v = r();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    shuffle: (arr) => {
      const a = [...arr];
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    },
  };
}
function hashSeed(seed, i) {
  let h = 2166136261 ^ seed;
  for (const c of `varied:${seed}:${i}`) {
    h ^= c.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

const FONT_FILES = {
  Sans: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  SansBold: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
  Lib: "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
  LibBold: "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
  Serif: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
  SerifBold: "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
  LibSerif: "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
  LibSerifBold: "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
  Mono: "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
  HDkg: "/usr/share/fonts/truetype/fifthhorseman/dkg.ttf",
  HBreip: "/usr/share/fonts/truetype/breip/Breip.ttf",
  HRuf: "/usr/share/fonts/truetype/rufscript/Rufscript010.ttf",
  HSteve: "/usr/share/fonts/truetype/sjfonts/SteveHand.ttf",
  HDelphine: "/usr/share/fonts/truetype/sjfonts/Delphine.ttf",
  HHumor: "/usr/share/fonts/truetype/humor-sans/Humor-Sans.ttf",
  HKristi: "/usr/share/fonts/truetype/kristi/Kristi.ttf",
  HDancing: "/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf",
  HTomson: "/usr/share/fonts/truetype/tomsontalks/TomsonTalks.ttf",
  HBWConnect: "/usr/share/fonts/opentype/bwht/BecauseWeConnect-Regular.otf",
  HBWMentor: "/usr/share/fonts/opentype/bwht/BecauseWeMentor-Regular.otf",
  HBWOrganize: "/usr/share/fonts/opentype/bwht/BecauseWeOrganize-Regular.otf",
};
for (const [name, file] of Object.entries(FONT_FILES)) {
  if (!fs.existsSync(file)) {
    console.error(`missing font ${file} (see /work/shared/worksheets/README.md for the Debian packages)`);
    process.exit(2);
  }
  GlobalFonts.registerFromPath(file, `wv${name}`);
}
const HAND_FONTS = [
  { name: "HDkg", scale: 1.0 },
  { name: "HBreip", scale: 1.1 },
  { name: "HRuf", scale: 1.0 },
  { name: "HSteve", scale: 0.95 },
  { name: "HDelphine", scale: 1.35 },
  { name: "HHumor", scale: 0.9 },
  { name: "HKristi", scale: 1.4 },
  { name: "HDancing", scale: 1.1 },
  { name: "HTomson", scale: 1.05 },
  { name: "HBWConnect", scale: 1.0 },
  { name: "HBWMentor", scale: 1.05 },
  { name: "HBWOrganize", scale: 1.05 },
];
const FORM_FONTS = [
  ["Sans", "SansBold"],
  ["Lib", "LibBold"],
  ["Serif", "SerifBold"],
  ["LibSerif", "LibSerifBold"],
];
const PRINT_VALUE_FONTS = ["Sans", "Lib", "Mono", "Serif", "LibSerif"];

const FIRST = [
  "Margaret",
  "John",
  "Robert",
  "Mary",
  "Patricia",
  "James",
  "Linda",
  "Michael",
  "Barbara",
  "William",
  "Elizabeth",
  "David",
  "Susan",
  "Richard",
  "Jessica",
  "Joseph",
  "Sarah",
  "Thomas",
  "Karen",
  "Charles",
  "Nancy",
  "Christopher",
  "Lisa",
  "Daniel",
  "Betty",
  "Matthew",
  "Dorothy",
  "Anthony",
  "Sandra",
  "Mark",
  "Ashley",
  "Donald",
  "Kimberly",
  "Steven",
  "Donna",
  "Paul",
  "Emily",
  "Andrew",
  "Carol",
  "Joshua",
  "Michelle",
  "Kenneth",
  "Amanda",
  "Kevin",
  "Helen",
  "Brian",
  "Ruth",
  "George",
  "Sharon",
  "Edward",
  "Agnieszka",
  "Ingrid",
  "Rajesh",
  "Mei",
  "Olusegun",
  "Siobhan",
  "Henrik",
  "Fatima",
  "Giovanni",
  "Yusuf",
  "Eleanor",
  "Graham",
  "Priya",
  "Hamish",
  "Beatrice",
];
const LAST = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Thompson",
  "White",
  "Harris",
  "Clark",
  "Lewis",
  "Robinson",
  "Walker",
  "Young",
  "Allen",
  "King",
  "O'Brien",
  "McDonald",
  "Fitzgerald",
  "Kowalski",
  "Nguyen",
  "Patel",
  "Schneider",
  "Rossi",
  "Andersson",
  "Okafor",
  "Murphy",
  "Campbell",
  "Stewart",
  "Morris",
  "Smith-Jones",
  "Baxter",
  "Henderson",
  "Gallagher",
  "Whitfield",
  "Sutherland",
  "Nakamura",
];
const DOCTOR_SURNAMES = [
  "Chen",
  "Sullivan",
  "Rahman",
  "Osei",
  "Moreau",
  "Gupta",
  "Fischer",
  "Walsh",
  "Novak",
  "Hughes",
  "Ferreira",
  "Lindqvist",
  "O'Neill",
  "Kapoor",
  "Brennan",
];
const SONOGRAPHER_NAMES = ["K. Lee", "J. Morton", "R. Baker", "A. Tran", "S. White", "D. Park", "C. Fox", "M. Hale"];
const CLINICS = [
  { name: "Riverside Vascular Laboratory", addr: "14 Harbour Street, Suite 3", phone: "Ph (02) 9555 0142" },
  { name: "Northgate Vein & Artery Clinic", addr: "220 Northgate Road, Level 2", phone: "Tel 0161 496 0731" },
  { name: "St. Brendan Vascular Imaging", addr: "5 Cathedral Close", phone: "Phone 01 555 2841" },
  { name: "Lakeshore Diagnostic Ultrasound", addr: "880 Lakeshore Blvd West", phone: "T: 416-555-0199" },
  { name: "Hillcrest Vascular Associates", addr: "3 Hillcrest Medical Park", phone: "Tel 03 5550 1188" },
  { name: "Westmead Imaging Group", addr: "Level 4, 12 Station Street", phone: "(08) 8123 4567" },
  { name: "Valley Heart & Vascular", addr: "1900 Valley Parkway", phone: "Tel 555-201-7788" },
];
const TITLES = {
  carotid: [
    "CAROTID DUPLEX ULTRASOUND WORKSHEET",
    "Carotid Duplex Scan",
    "Extracranial Carotid Duplex Study",
    "CAROTID ARTERY DUPLEX - TECHNOLOGIST WORKSHEET",
    "Carotid Doppler Ultrasound",
  ],
  venous: [
    "LOWER EXTREMITY VENOUS DUPLEX WORKSHEET",
    "Lower Limb Venous Duplex",
    "Venous Reflux Study - Lower Limb",
    "LEG VENOUS DUPLEX ASSESSMENT",
    "Lower Extremity Venous Insufficiency Study",
  ],
};
const INDICATIONS = {
  carotid: [
    "carotid bruit",
    "TIA",
    "amaurosis fugax",
    "pre-op CABG",
    "follow-up stenosis",
    "dizziness",
    "stroke workup",
    "post CEA surveillance",
    "Left sided weakness",
    "Syncope",
  ],
  venous: [
    "varicose veins",
    "leg swelling",
    "venous ulcer",
    "pre-ablation mapping",
    "aching legs",
    "skin changes",
    "RECURRENT VARICES",
    "Heavy legs",
    "Left calf pain",
  ],
};

// How clinics write each label. `name` is one field; `surname`/`given` the split form.
const LABELS = {
  name: [
    "Patient:",
    "Pt Name:",
    "Patient Name (Surname, Given):",
    "Name",
    "Name:",
    "Patient Name",
    "PATIENT NAME:",
    "Full name:",
    "Patient's name:",
    "Pt:",
  ],
  surname: ["Surname:", "Last name:", "Family name:", "SURNAME"],
  given: ["Given names:", "First name:", "Given name(s):", "Forename:", "FIRST NAME"],
  dob: ["DOB", "DOB:", "D.O.B.", "Birth Date:", "Born:", "Date of birth:", "DoB:", "Birthdate", "DATE OF BIRTH"],
  exam: [
    "Date of Scan:",
    "Exam date:",
    "Study Date:",
    "Test date:",
    "Date of service:",
    "Scan date",
    "Exam Date",
    "Examination date:",
    "Study date",
    "DATE OF EXAM",
  ],
  referringPhysician: [
    "Referring:",
    "Ref Dr:",
    "Referring physician:",
    "Referred by:",
    "Referring Doctor",
    "Referrer:",
    "Requesting Dr:",
    "REF. DR",
  ],
  mrn: ["MRN:", "UR:", "UR No.:", "Hospital no.:", "Patient ID:", "MRN", "Medical record no.:", "URN:"],
  indication: [
    "Indication:",
    "Clinical history:",
    "Reason for study:",
    "Clinical indication:",
    "Reason for exam:",
    "History:",
    "Clinical details:",
    "INDICATION",
  ],
  sonographer: ["Sonographer:", "Tech:", "Scanned by:", "Technologist:", "Performed by:", "Sonographer"],
  sex: ["Sex:", "Gender:", "Sex", "GENDER"],
  comments: [
    "Comments:",
    "Sonographer's impression:",
    "Preliminary findings:",
    "Technical comments:",
    "Notes:",
    "Sonographer comments:",
    "Impression / Comments:",
    "Tech impression:",
  ],
};
// Distractors some forms carry; their values must never be taken for another field.
const DISTRACTORS = [
  ["Age:", (doc) => String(2026 - doc.dobParts.y)],
  ["Ward:", () => "Outpatient"],
  ["Phone:", (_doc, rng) => `04${rng.i(10, 99)} ${rng.i(100, 999)} ${rng.i(100, 999)}`],
  ["Height:", (_doc, rng) => `${rng.i(150, 195)} cm`],
];

const pad = (n) => String(n).padStart(2, "0");
const isoOf = (y, m, d) => `${y}-${pad(m)}-${pad(d)}`;
function randomDate(rng, y0, y1) {
  const y = rng.i(y0, y1);
  const m = rng.i(1, 12);
  return { y, m, d: rng.i(1, new Date(Date.UTC(y, m, 0)).getUTCDate()) };
}
const EXAM_PIVOT = 26;
function twoDigitOk(kind, y) {
  const yy = y % 100;
  const back = kind === "dob" ? (yy <= 30 ? 2000 + yy : 1900 + yy) : yy > EXAM_PIVOT ? 1900 + yy : 2000 + yy;
  return back === y;
}
const DATE_FORMATS = ["dd/mm/yyyy", "dd.mm.yy", "dd-mm-yyyy", "yyyy-mm-dd", "dd.mm.yyyy", "d/m/yyyy", "dd/mm/yy"];
function formatDate(rng, kind, { y, m, d }) {
  let fmt = rng.pick(DATE_FORMATS);
  if (fmt.endsWith("yy") && !fmt.endsWith("yyyy") && !twoDigitOk(kind, y)) fmt = fmt.replace(/yy$/, "yyyy");
  const s = fmt
    .replace("yyyy", String(y))
    .replace(/yy$/, pad(y % 100))
    .replace("dd", pad(d))
    .replace(/\bd\b/, String(d))
    .replace("mm", pad(m))
    .replace(/\bm\b/, String(m));
  return { text: s, format: fmt };
}

const CAROTID_ROWS = ["CCA Prox", "CCA Mid", "CCA Dist", "Bulb", "ICA Prox", "ICA Mid", "ICA Dist", "ECA", "VA"];
const VENOUS_ROWS = [
  "CFV",
  "SFJ",
  "GSV Prox Thigh",
  "GSV Mid Thigh",
  "GSV Knee",
  "GSV Calf",
  "FV",
  "Pop V",
  "SPJ",
  "SSV",
];
const HEADS = {
  carotid: [
    ["Vessel", "Rt PSV cm/s", "Rt EDV cm/s", "Lt PSV cm/s", "Lt EDV cm/s"],
    ["Segment", "Right PSV (cm/s)", "Right EDV (cm/s)", "Left PSV (cm/s)", "Left EDV (cm/s)"],
    ["Artery", "R PSV", "R EDV", "L PSV", "L EDV"],
  ],
  venous: [
    ["Segment", "Rt reflux s", "Rt diam mm", "Lt reflux s", "Lt diam mm"],
    ["Vein", "Right reflux (s)", "Right diam (mm)", "Left reflux (s)", "Left diam (mm)"],
    ["Segment", "R Reflux s", "R Diameter mm", "L Reflux s", "L Diameter mm"],
  ],
};
function carotidValues(rng) {
  const out = [];
  const stenosedSide = rng.chance(0.5) ? rng.pick(["R", "L"]) : null;
  for (const vessel of CAROTID_ROWS) {
    for (const side of ["R", "L"]) {
      if (rng.chance(0.08)) continue;
      let psv = rng.i(45, 125);
      let edv = rng.i(9, 32);
      if (vessel === "VA") [psv, edv] = [rng.i(30, 70), rng.i(8, 22)];
      if (vessel === "ECA") [psv, edv] = [rng.i(60, 160), rng.i(5, 20)];
      if (stenosedSide === side && vessel === "ICA Prox") [psv, edv] = [rng.i(130, 460), rng.i(40, 160)];
      out.push({ vessel, side, param: "PSV", value: psv, unit: "cm/s", written: String(psv) });
      out.push({ vessel, side, param: "EDV", value: edv, unit: "cm/s", written: String(edv) });
    }
  }
  return out;
}
function venousValues(rng) {
  const out = [];
  for (const vessel of VENOUS_ROWS) {
    for (const side of ["R", "L"]) {
      if (rng.chance(0.1)) continue;
      const refl = rng.chance(0.35) ? rng.i(6, 45) / 10 : rng.i(0, 5) / 10;
      const diam = rng.i(25, 120) / 10;
      out.push({ vessel, side, param: "Reflux", value: refl, unit: "s", written: refl.toFixed(1) });
      out.push({ vessel, side, param: "Diam", value: diam, unit: "mm", written: diam.toFixed(1) });
    }
  }
  return out;
}

const W = 1654;
const H = 2339;
const setFont = (ctx, px, family) => {
  ctx.font = `${Math.round(px)}px wv${family}`;
};
function drawHand(ctx, rng, text, x, y, style) {
  const { font, size, color, slope } = style;
  let cx = x;
  const x0 = x;
  let minY = y - size;
  let maxY = y + size * 0.3;
  for (const ch of text) {
    const s = size * (1 + rng.gauss() * 0.04);
    setFont(ctx, s, font);
    const dy = rng.gauss() * size * 0.035 + (cx - x0) * slope;
    ctx.save();
    ctx.translate(cx, y + dy);
    ctx.rotate(rng.gauss() * 0.03);
    ctx.fillStyle = color;
    ctx.globalAlpha = 0.82 + rng.f(0, 0.18);
    ctx.fillText(ch, 0, 0);
    ctx.restore();
    cx += ctx.measureText(ch).width * (1 + rng.gauss() * 0.03) + (ch === " " ? size * 0.08 : size * 0.01);
    minY = Math.min(minY, y + dy - size);
    maxY = Math.max(maxY, y + dy + size * 0.3);
  }
  ctx.globalAlpha = 1;
  return { x0, y0: minY, x1: cx, y1: maxY };
}
function drawPrint(ctx, text, x, y, style) {
  setFont(ctx, style.size, style.font);
  ctx.fillStyle = style.color;
  ctx.fillText(text, x, y);
  return { x0: x, y0: y - style.size, x1: x + ctx.measureText(text).width, y1: y + style.size * 0.3 };
}

/** The header's fields in the sheet's order, each [key, label, written value]. */
function headerFields(rng, doc) {
  const f = [];
  if (doc.form.splitName) {
    f.push(["surname", doc.labels.surname, doc.surnameWritten]);
    f.push(["given", doc.labels.given, doc.givenWritten]);
  } else f.push(["name", doc.labels.name, doc.nameWritten]);
  f.push(["dob", doc.labels.dob, doc.dob.text]);
  f.push(["exam", doc.labels.exam, doc.exam.text]);
  for (const key of ["mrn", "sex", "referringPhysician", "sonographer", "indication"]) {
    if (doc.header[key] !== null) f.push([key, doc.labels[key], doc.written[key]]);
  }
  if (doc.distractor) f.push(["distractor", doc.distractor[0], doc.distractor[1]]);
  // Patient identity usually comes first; the rest in the clinic's own order.
  const head = f.filter(([k]) => ["name", "surname", "given"].includes(k));
  const rest = rng.shuffle(f.filter(([k]) => !["name", "surname", "given"].includes(k)));
  return rng.chance(0.8) ? [...head, ...rest] : rng.shuffle(f);
}

function renderPage(rng, doc) {
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, W, H);
  const ink = "#111111";
  const [formFont, formBold] = doc.form.fonts;
  const M = doc.form.margin;
  const valueStyle = (size) =>
    doc.level === "clean"
      ? { kind: "print", font: doc.printFont, size: size ?? doc.form.valueSize, color: "#101010" }
      : {
          kind: "hand",
          font: doc.handFont.name,
          size: doc.handSize * doc.handFont.scale * ((size ?? 30) / 30),
          color: doc.inkColor,
          slope: rng.f(-0.012, 0.012),
        };
  const writeValue = (text, x, y, size) => {
    const st = valueStyle(size);
    return st.kind === "print" ? drawPrint(ctx, text, x, y, st) : drawHand(ctx, rng, text, x, y, st);
  };
  const jitter = (a, b) => (doc.level === "clean" ? 0 : rng.f(a, b));

  // Clinic header and title.
  const centred = doc.form.centredHeader;
  ctx.fillStyle = "#1d4f91";
  setFont(ctx, doc.form.clinicSize, formBold);
  const cw = ctx.measureText(doc.clinic.name).width;
  ctx.fillText(doc.clinic.name, centred ? (W - cw) / 2 : M, 130);
  ctx.fillStyle = "#333333";
  setFont(ctx, 22, formFont);
  const addr = `${doc.clinic.addr}  ·  ${doc.clinic.phone}`;
  ctx.fillText(addr, centred ? (W - ctx.measureText(addr).width) / 2 : M, 168);
  ctx.fillStyle = ink;
  ctx.fillRect(M, 195, W - 2 * M, 3);
  setFont(ctx, doc.form.titleSize, formBold);
  const tw = ctx.measureText(doc.title).width;
  ctx.fillText(doc.title, doc.form.titleLeft ? M : (W - tw) / 2, 262);

  // Header fields.
  const fields = headerFields(rng, doc);
  // A tall field style in one column would run into the table and the footer: such forms use two columns.
  if ((doc.form.fieldStyle === "below" || doc.form.fieldStyle === "boxed") && fields.length > 6) doc.form.columns = 2;
  const cols = doc.form.columns;
  const top = 310;
  const labelSize = doc.form.labelSize;
  const innerW = W - 2 * M;
  const colW = innerW / cols;
  const boxes = {};
  const style = doc.form.fieldStyle;
  const rowH = style === "inline" || style === "table" ? doc.form.rowH : doc.form.rowH + 40;
  const nRows = Math.ceil(fields.length / cols);
  ctx.strokeStyle = ink;
  ctx.lineWidth = 2;
  if (doc.form.frame && style !== "table" && style !== "boxed") ctx.strokeRect(M, top, innerW, nRows * rowH + 20);
  fields.forEach(([key, label, value], i) => {
    // Fill row by row, or column by column.
    const col = doc.form.byColumn ? Math.floor(i / nRows) : i % cols;
    const row = doc.form.byColumn ? i % nRows : Math.floor(i / cols);
    const x = M + col * colW + 18;
    const yTop = top + 10 + row * rowH;
    setFont(ctx, labelSize, doc.form.boldLabels ? formBold : formFont);
    ctx.fillStyle = ink;
    const lw = ctx.measureText(label).width;
    if (style === "inline") {
      const y = yTop + rowH * 0.62;
      ctx.fillText(label, x, y);
      if (doc.form.underline) ctx.fillRect(x + lw + 12, y + 8, colW - lw - 50, 2);
      boxes[key] = writeValue(value, x + lw + 20 + jitter(-8, 30), y + jitter(-6, 4));
    } else if (style === "below") {
      const y = yTop + labelSize + 6;
      ctx.fillText(label, x, y);
      const vy = y + rowH * 0.55;
      if (doc.form.underline) ctx.fillRect(x, vy + 10, colW - 50, 2);
      boxes[key] = writeValue(value, x + 6 + jitter(0, 30), vy + jitter(-6, 4));
    } else if (style === "boxed") {
      ctx.strokeRect(M + col * colW, top + row * rowH, colW, rowH);
      setFont(ctx, labelSize * 0.8, formFont);
      ctx.fillText(label, x - 8, top + row * rowH + labelSize * 0.8 + 6);
      boxes[key] = writeValue(value, x + jitter(0, 30), top + row * rowH + rowH * 0.8 + jitter(-6, 2));
    } else {
      // A key/value table: the label's cell, then the value's cell.
      const cellX = M + col * colW;
      const split = colW * doc.form.tableSplit;
      ctx.strokeRect(cellX, top + row * rowH, split, rowH);
      ctx.strokeRect(cellX + split, top + row * rowH, colW - split, rowH);
      if (doc.form.shadeLabels) {
        ctx.fillStyle = "#e8e8e8";
        ctx.fillRect(cellX + 2, top + row * rowH + 2, split - 4, rowH - 4);
        ctx.fillStyle = ink;
      }
      setFont(ctx, labelSize * 0.9, doc.form.boldLabels ? formBold : formFont);
      const y = top + row * rowH + rowH * 0.62;
      ctx.fillText(label, cellX + 12, y);
      boxes[key] = writeValue(value, cellX + split + 14 + jitter(0, 20), y + jitter(-5, 3));
    }
  });
  let ty = top + nRows * rowH + 80;

  // Measurement table.
  setFont(ctx, 30, formBold);
  ctx.fillStyle = ink;
  ctx.fillText(doc.template === "carotid" ? "Spectral Doppler Velocities" : "Reflux Times and Vein Diameters", M, ty);
  ty += 20;
  const rowsT = doc.template === "carotid" ? CAROTID_ROWS : VENOUS_ROWS;
  const heads = doc.heads;
  const colX = [M, M + 380, M + 660, M + 940, M + 1220, W - M];
  const trH = 58;
  const nRowsT = rowsT.length + 1;
  for (let r = 0; r <= nRowsT; r++) ctx.fillRect(M, ty + r * trH - 1, W - 2 * M, 2);
  for (const cx of colX) ctx.fillRect(cx - 1, ty, 2, nRowsT * trH);
  setFont(ctx, 24, formBold);
  heads.forEach((h, i) => {
    ctx.fillText(h, colX[i] + 12, ty + 39);
  });
  const params =
    doc.template === "carotid"
      ? [
          ["R", "PSV"],
          ["R", "EDV"],
          ["L", "PSV"],
          ["L", "EDV"],
        ]
      : [
          ["R", "Reflux"],
          ["R", "Diam"],
          ["L", "Reflux"],
          ["L", "Diam"],
        ];
  rowsT.forEach((vessel, ri) => {
    const ry = ty + trH * (ri + 1) + 41;
    setFont(ctx, 26, formFont);
    ctx.fillStyle = ink;
    ctx.fillText(vessel, colX[0] + 14, ry);
    params.forEach(([side, param], ci) => {
      const m = doc.measurements.find((mm) => mm.vessel === vessel && mm.side === side && mm.param === param);
      if (!m) {
        if (doc.level === "noisy" && rng.chance(0.5)) writeValue("-", colX[ci + 1] + 90, ry);
        return;
      }
      writeValue(m.written, colX[ci + 1] + (doc.level === "clean" ? 40 : rng.f(20, 90)), ry + jitter(-5, 5));
    });
  });
  ty += nRowsT * trH + 80;

  // Comments: the label, then the text right of it or on the lines below.
  if (doc.header.comments !== null) {
    setFont(ctx, 28, formBold);
    ctx.fillStyle = ink;
    ctx.fillText(doc.labels.comments, M, ty);
    for (let i = 0; i < 3; i++) ctx.fillRect(M, ty + 70 + i * 66, W - 2 * M, 2);
    boxes.comments = writeValue(doc.written.comments, M + 10 + jitter(0, 30), ty + 62);
  }
  setFont(ctx, 22, formFont);
  ctx.fillStyle = "#444444";
  ctx.fillText("Signature: ______________________", M, H - 150);
  ctx.fillText(`Form ${doc.formCode}    Page 1 of 1`, M, H - 105);
  return { canvas, boxes };
}

async function photoEffects(rng, pngBuf) {
  const angle = rng.f(1, 4) * (rng.chance(0.5) ? -1 : 1);
  const desk = rng.pick([
    { r: 96, g: 78, b: 60 },
    { r: 60, g: 62, b: 70 },
    { r: 170, g: 160, b: 140 },
  ]);
  const margin = Math.round(rng.f(40, 110));
  const img = sharp(pngBuf)
    .flatten({ background: "#ffffff" })
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: desk })
    .rotate(angle, { background: desk });
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const gx = rng.f(-1, 1);
  const gy = rng.f(-1, 1);
  const gmin = rng.f(0.6, 0.8);
  const warm = [rng.f(0.98, 1.0), rng.f(0.93, 0.98), rng.f(0.82, 0.92)];
  const noiseSd = rng.f(4, 11);
  const shadow = rng.chance(0.5) ? { x: rng.f(0.2, 0.8) * width, w: rng.f(80, 250), k: rng.f(0.15, 0.3) } : null;
  const cxm = width / 2;
  const cym = height / 2;
  const rmax = Math.hypot(cxm, cym);
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = (x / width - 0.5) * gx + (y / height - 0.5) * gy;
      let L = gmin + (1 - gmin) * (0.5 + u * 0.5);
      const r = Math.hypot(x - cxm, y - cym) / rmax;
      L *= 1 - 0.25 * r * r;
      if (shadow) {
        const d = (x + 0.3 * y - shadow.x) / shadow.w;
        L *= 1 - shadow.k * Math.exp(-d * d);
      }
      const iIn = (y * width + x) * channels;
      const iOut = (y * width + x) * 3;
      const n = rng.gauss() * noiseSd;
      for (let c = 0; c < 3; c++) {
        const v = data[iIn + c] * L * warm[c] + n;
        out[iOut + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
  const scale = rng.f(0.75, 1.0);
  const quality = rng.i(35, 70);
  const blur = rng.f(0.5, 1.3);
  const jpg = await sharp(out, { raw: { width, height, channels: 3 } })
    .resize(Math.round(width * scale))
    .blur(blur)
    .jpeg({ quality, chromaSubsampling: "4:2:0", mozjpeg: false })
    .toBuffer();
  return { buf: jpg, params: { angleDeg: +angle.toFixed(2), jpegQuality: quality, scale: +scale.toFixed(3) } };
}

function toPdf(imgBuf, widthPx, heightPx, dpi) {
  return new Promise((resolve, reject) => {
    const wPt = (widthPx / dpi) * 72;
    const hPt = (heightPx / dpi) * 72;
    const pdf = new PDFDocument({
      size: [wPt, hPt],
      margin: 0,
      info: { Producer: "varied generator", Creator: "varied generator", CreationDate: new Date(Date.UTC(2024, 0, 1)) },
    });
    const chunks = [];
    pdf.on("data", (c) => chunks.push(c));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
    pdf.image(imgBuf, 0, 0, { width: wPt, height: hPt });
    pdf.end();
  });
}

function doctorName(rng) {
  const surname = rng.pick(DOCTOR_SURNAMES);
  const initial = String.fromCharCode(65 + rng.i(0, 25));
  return rng.pick([
    `Dr ${initial}. ${surname}`,
    `Dr ${surname}`,
    `${initial}. ${surname}`,
    `Dr. ${initial} ${surname}`,
  ]);
}

const manifest = [];
for (let i = 0; i < COUNT; i++) {
  const level = i < Math.ceil(COUNT / 2) ? "clean" : "noisy";
  const rng = makeRng(hashSeed(SEED, i));
  const template = rng.chance(0.55) ? "carotid" : "venous";
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const middle = rng.chance(0.2) ? ` ${String.fromCharCode(65 + rng.i(0, 25))}.` : "";
  const form = {
    fonts: rng.pick(FORM_FONTS),
    margin: rng.i(90, 130),
    centredHeader: rng.chance(0.5),
    clinicSize: rng.i(34, 44),
    titleSize: rng.i(30, 38),
    titleLeft: rng.chance(0.3),
    fieldStyle: rng.pick(["inline", "inline", "below", "boxed", "table"]),
    columns: rng.pick([1, 2, 2, 2]),
    byColumn: rng.chance(0.3),
    labelSize: rng.i(24, 30),
    valueSize: rng.i(27, 32),
    rowH: rng.i(70, 84),
    underline: rng.chance(0.7),
    frame: rng.chance(0.5),
    boldLabels: rng.chance(0.6),
    tableSplit: rng.f(0.36, 0.46),
    shadeLabels: rng.chance(0.5),
    splitName: rng.chance(0.2),
  };
  const splitName = form.splitName;
  const nameStyle = splitName ? "split" : rng.pick(["First Last", "First Last", "LAST, First", "FIRST LAST"]);
  const nameWritten =
    nameStyle === "First Last"
      ? `${first}${middle} ${last}`
      : nameStyle === "LAST, First"
        ? `${last.toUpperCase()}, ${first}${middle}`
        : `${first}${middle} ${last}`.toUpperCase();
  const dobParts = randomDate(rng, 1931, 2006);
  const examParts = randomDate(rng, 2019, 2026);
  const sexWritten = rng.pick(["M", "F", "Male", "Female", "m", "f", "MALE", "FEMALE"]);
  const mrnWritten = rng.pick([
    `${rng.i(100000, 9999999)}`,
    `MRN${rng.i(100000, 999999)}`,
    `UR${rng.i(10000, 999999)}`,
    `H${rng.i(1000000, 9999999)}`,
    `${rng.i(100, 999)}-${rng.i(100, 999)}-${rng.i(100, 999)}`,
  ]);
  const indication = rng.pick(INDICATIONS[template]);
  const sonographer = rng.chance(0.5)
    ? rng.pick(["KL", "JM", "RB", "AT", "SW", "DP", "CF", "MH"])
    : rng.pick(SONOGRAPHER_NAMES);
  const referrer = doctorName(rng);
  const comments = rng.pick(
    template === "carotid"
      ? [
          "No significant stenosis",
          "Mild plaque at both bulbs",
          "R ICA 50-69% stenosis",
          "Tortuous vessels, limited views",
          "Heterogeneous plaque L ICA",
          "Antegrade vertebral flow bilaterally",
        ]
      : [
          "GSV incompetent from SFJ to knee",
          "No DVT seen",
          "SSV competent",
          "Reflux at SFJ, GSV 7 mm",
          "Deep veins patent and competent",
          "Perforator incompetent mid calf",
        ],
  );
  const present = (p) => rng.chance(p);
  const header = {
    indication: present(0.9) ? indication : null,
    referringPhysician: present(0.85) ? referrer : null,
    mrn: present(0.9) ? mrnWritten : null,
    sonographer: present(0.8) ? sonographer : null,
    sex: present(0.7) ? (/^m/i.test(sexWritten) ? "male" : "female") : null,
    comments: present(0.8) ? comments : null,
  };
  const written = {
    indication,
    referringPhysician: referrer,
    mrn: mrnWritten,
    sonographer,
    sex: sexWritten,
    comments,
  };
  const labels = Object.fromEntries(Object.entries(LABELS).map(([k, pool]) => [k, rng.pick(pool)]));
  const doc = {
    level,
    template,
    form,
    clinic: rng.pick(CLINICS),
    title: rng.pick(TITLES[template]),
    heads: rng.pick(HEADS[template]),
    labels,
    nameWritten,
    surnameWritten: rng.chance(0.5) ? last.toUpperCase() : last,
    givenWritten: `${first}${middle}`,
    dobParts,
    dob: { ...formatDate(rng, "dob", dobParts), iso: isoOf(dobParts.y, dobParts.m, dobParts.d) },
    exam: { ...formatDate(rng, "exam", examParts), iso: isoOf(examParts.y, examParts.m, examParts.d) },
    header,
    written,
    formCode: `VL-${rng.i(100, 399)} rev ${rng.i(1, 9)}`,
    printFont: rng.pick(PRINT_VALUE_FONTS),
    handFont: rng.pick(HAND_FONTS),
    handSize: rng.f(36, 46),
    inkColor: rng.pick(["#1b2a8c", "#14206b", "#161616", "#2a2a40"]),
  };
  const distractor = rng.chance(0.35) ? rng.pick(DISTRACTORS) : null;
  doc.distractor = distractor ? [distractor[0], distractor[1](doc, rng)] : null;
  doc.measurements = template === "carotid" ? carotidValues(rng) : venousValues(rng);
  const { canvas, boxes } = renderPage(rng, doc);
  const png = canvas.toBuffer("image/png");
  const id = `ws-${level}-${String(i).padStart(3, "0")}`;
  let file;
  let imgBuf;
  let photo = null;
  let wPx = W;
  let hPx = H;
  if (level === "clean") {
    file = `${id}.png`;
    imgBuf = png;
  } else {
    const r = await photoEffects(rng, png);
    file = `${id}.jpg`;
    imgBuf = r.buf;
    photo = r.params;
    const meta = await sharp(imgBuf).metadata();
    wPx = meta.width;
    hPx = meta.height;
  }
  fs.writeFileSync(path.join(OUT, file), imgBuf);
  let pdfFile = null;
  if (PDF_EVERY > 0 && i % PDF_EVERY === 0) {
    pdfFile = `${id}.pdf`;
    fs.writeFileSync(
      path.join(OUT, pdfFile),
      await toPdf(imgBuf, wPx, hPx, level === "clean" ? 200 : 200 * photo.scale),
    );
  }
  const gt = {
    id,
    seed: SEED,
    index: i,
    level,
    template,
    layout: `${form.fieldStyle}-${form.columns}col${form.splitName ? "-split" : ""}`,
    form,
    files: { image: file, pdf: pdfFile },
    imageSize: { width: wPx, height: hPx },
    title: doc.title,
    patientName: splitName ? `${doc.surnameWritten}, ${doc.givenWritten}` : nameWritten,
    patientNameTokens: `${first}${middle} ${last}`.split(/\s+/).filter(Boolean),
    patientDob: doc.dob.iso,
    examDate: doc.exam.iso,
    written: {
      patientName: splitName ? { surname: doc.surnameWritten, given: doc.givenWritten } : nameWritten,
      patientDob: doc.dob.text,
      examDate: doc.exam.text,
      ...Object.fromEntries(Object.entries(header).map(([k, v]) => [k, v === null ? null : written[k]])),
    },
    labels: Object.fromEntries(
      Object.entries(labels).filter(([k]) =>
        ["surname", "given"].includes(k)
          ? splitName
          : k === "name"
            ? !splitName
            : ["dob", "exam"].includes(k) || header[k] !== null,
      ),
    ),
    distractor: doc.distractor,
    header,
    measurements: doc.measurements,
    valueFont: level === "clean" ? doc.printFont : doc.handFont.name,
    photo,
    fieldBoxesUndistorted: boxes,
  };
  fs.writeFileSync(path.join(OUT, `${id}.json`), JSON.stringify(gt, null, 2));
  manifest.push({ id, level, image: file, pdf: pdfFile, groundTruth: `${id}.json` });
  process.stdout.write(`${id} ${file}${pdfFile ? " +pdf" : ""} ${gt.layout}\n`);
}
fs.writeFileSync(
  path.join(OUT, "manifest.json"),
  JSON.stringify(
    { seed: SEED, count: COUNT, generator: "bench/worksheets/generate-varied.mjs", documents: manifest },
    null,
    2,
  ),
);
