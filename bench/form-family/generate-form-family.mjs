#!/usr/bin/env node
// Sonoscribe: a copy of /work/shared/worksheets/generate-worksheets.mjs (same drawing, same ground truth) with
// two additions for the reading-template bench and tests (issue 23):
//   --form-seed N   every sheet uses ONE clinic form: template, layout, clinic, label wordings, font and revision
//                   come from N, values and photo effects still vary per sheet (from --seed)
//   --blank         also writes blank.png: that form printed with no values, as a clinic would scan it
// PDFs are not written (--pdf-every defaults to 0 here; pdf-lib is not a project dependency).
//
// Synthetic vascular-ultrasound worksheet generator with ground truth.
//
// Usage:
//   node gen/generate-worksheets.mjs [--seed 42] [--count 40] [--out corpus] [--pdf-every 7]
//
// Produces, for each document i (0-based), in --out:
//   ws-<level>-<NNN>.png   (level "clean": printed values, lossless, no distortion)
//   ws-<level>-<NNN>.jpg   (level "noisy": handwriting fonts + phone-photo effects)
//   ws-<level>-<NNN>.json  ground truth (see README.md)
//   ws-<level>-<NNN>.pdf   single-page PDF of the same image, for every --pdf-every'th document
//   manifest.json          list of all documents
// The first half of --count is "clean", the second half "noisy".
// Same --seed (and same package versions + fonts) => byte-identical corpus.
//
// Needs: npm @napi-rs/canvas, sharp, pdf-lib ; Debian fonts (see README.md).

import fs from "node:fs";
import path from "node:path";
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import sharp from "sharp";

// ---------------------------------------------------------------- CLI
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, arr) => {
    if (a.startsWith("--")) acc.push([a.slice(2), arr[i + 1] && !arr[i + 1].startsWith("--") ? arr[i + 1] : "true"]);
    return acc;
  }, []),
);
const SEED = Number(args.seed ?? 42);
const COUNT = Number(args.count ?? 40);
const OUT = path.resolve(args.out ?? "corpus");
const PDF_EVERY = Number(args["pdf-every"] ?? 0);
const FORM_SEED = args["form-seed"] === undefined ? null : Number(args["form-seed"]);
const BLANK = args.blank === "true";
fs.mkdirSync(OUT, { recursive: true });

// ---------------------------------------------------------------- seeded RNG
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
  const rng = {
    f: (a = 0, b = 1) => a + (b - a) * r(),
    i: (a, b) => Math.floor(a + (b - a + 1) * r()), // inclusive
    pick: (arr) => arr[Math.floor(r() * arr.length)],
    chance: (p) => r() < p,
    gauss: () => {
      let u = 0,
        v = 0;
      while (u === 0) u = r();
      while (v === 0) v = r();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    raw: r,
  };
  return rng;
}
function hashSeed(seed, i) {
  // deterministic per-document seed
  let h = 2166136261 ^ seed;
  for (const c of `ws:${seed}:${i}`) {
    h ^= c.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

// ---------------------------------------------------------------- fonts
const FONT_FILES = {
  // printed form + "clean" typed values
  Sans: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  SansBold: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
  Lib: "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
  LibBold: "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
  Serif: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
  SerifBold: "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
  Mono: "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
  // handwriting-like (Debian: fonts-dkg-handwriting fonts-breip fonts-rufscript fonts-sjfonts
  // fonts-humor-sans fonts-kristi fonts-dancingscript fonts-tomsontalks fonts-bwht)
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
    console.error(`missing font ${file} (see README.md for apt packages)`);
    process.exit(2);
  }
  GlobalFonts.registerFromPath(file, `ws${name}`);
}
// size multipliers so that each handwriting font has a similar visual x-height
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
const PRINT_VALUE_FONTS = ["Sans", "Lib", "Mono", "Serif"];

// ---------------------------------------------------------------- content pools
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
  "Van der Berg",
  "Baxter",
  "Henderson",
  "Gallagher",
  "Whitfield",
];
const DOCTORS = [
  "Dr A. Chen",
  "Dr P. Sullivan",
  "Dr M. Rahman",
  "Dr K. Osei",
  "Dr L. Moreau",
  "Dr S. Gupta",
  "Dr R. Fischer",
  "Dr J. Walsh",
  "Dr E. Novak",
  "Dr T. Hughes",
];
const SONOGRAPHERS = ["KL", "JM", "RB", "AT", "SW", "DP", "CF", "MH"];
const CLINICS = [
  {
    name: "Riverside Vascular Laboratory",
    addr: "14 Harbour Street, Suite 3",
    phone: "Ph (02) 9555 0142  Fax (02) 9555 0143",
  },
  { name: "Northgate Vein & Artery Clinic", addr: "220 Northgate Road, Level 2", phone: "Tel 0161 496 0731" },
  { name: "St. Brendan Vascular Imaging", addr: "5 Cathedral Close", phone: "Phone 01 555 2841" },
  {
    name: "Lakeshore Diagnostic Ultrasound",
    addr: "880 Lakeshore Blvd West",
    phone: "T: 416-555-0199  F: 416-555-0198",
  },
  { name: "Hillcrest Vascular Associates", addr: "3 Hillcrest Medical Park", phone: "Tel 03 5550 1188" },
];
const CAROTID_INDICATIONS = [
  "carotid bruit",
  "TIA",
  "amaurosis fugax",
  "pre-op CABG",
  "follow-up stenosis",
  "dizziness",
  "stroke workup",
  "post CEA surveillance",
];
const VENOUS_INDICATIONS = [
  "varicose veins",
  "leg swelling",
  "venous ulcer",
  "pre-ablation mapping",
  "aching legs",
  "skin changes",
  "recurrent varices",
];

const LABELS = {
  name: ["Patient Name:", "Patient Name:", "Patient Name:", "Name:", "Patient's Name:"],
  dob: ["DOB:", "DOB:", "Date of Birth:", "D.O.B.:"],
  exam: ["Exam Date:", "Exam Date:", "Date of Exam:", "Study Date:"],
};

// ---------------------------------------------------------------- dates
const pad = (n) => String(n).padStart(2, "0");
function isoOf(y, m, d) {
  return `${y}-${pad(m)}-${pad(d)}`;
}
function randomDate(rng, y0, y1) {
  const y = rng.i(y0, y1);
  const m = rng.i(1, 12);
  const dim = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { y, m, d: rng.i(1, dim) };
}
// Two-digit-year rules used by the extractor (documented in README):
//   DOB: yy <= 30 -> 20yy else 19yy ; exam date: yy > EXAM_PIVOT -> 19yy else 20yy
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

// ---------------------------------------------------------------- measurements
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
function carotidValues(rng) {
  const out = [];
  const stenosedSide = rng.chance(0.5) ? rng.pick(["R", "L"]) : null;
  for (const vessel of CAROTID_ROWS) {
    for (const side of ["R", "L"]) {
      if (rng.chance(0.08)) continue; // not measured -> blank cell
      let psv = rng.i(45, 125),
        edv = rng.i(9, 32);
      if (vessel === "VA") {
        psv = rng.i(30, 70);
        edv = rng.i(8, 22);
      }
      if (vessel === "ECA") {
        psv = rng.i(60, 160);
        edv = rng.i(5, 20);
      }
      if (stenosedSide === side && vessel === "ICA Prox") {
        psv = rng.i(130, 460);
        edv = rng.i(40, 160);
      }
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
      const refl = rng.chance(0.35) ? rng.i(6, 45) / 10 : rng.i(0, 5) / 10; // seconds, 1 decimal
      const diam = rng.i(25, 120) / 10; // mm
      out.push({ vessel, side, param: "Reflux", value: refl, unit: "s", written: refl.toFixed(1) });
      out.push({ vessel, side, param: "Diam", value: diam, unit: "mm", written: diam.toFixed(1) });
    }
  }
  return out;
}

// ---------------------------------------------------------------- drawing helpers
const W = 1654,
  H = 2339; // A4 @ 200 dpi
function setFont(ctx, px, family) {
  ctx.font = `${Math.round(px)}px ws${family}`;
}

// Handwriting: draw character by character with jitter. Returns bbox.
function drawHand(ctx, rng, text, x, y, style) {
  const { font, size, color, slope } = style;
  let cx = x;
  const x0 = x;
  let minY = y - size,
    maxY = y + size * 0.3;
  for (const ch of text) {
    const s = size * (1 + rng.gauss() * 0.04);
    setFont(ctx, s, font);
    const dy = rng.gauss() * size * 0.035 + (cx - x0) * slope;
    const rot = rng.gauss() * 0.03;
    ctx.save();
    ctx.translate(cx, y + dy);
    ctx.rotate(rot);
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
function drawPrintValue(ctx, text, x, y, style) {
  setFont(ctx, style.size, style.font);
  ctx.fillStyle = style.color;
  ctx.fillText(text, x, y);
  const w = ctx.measureText(text).width;
  return { x0: x, y0: y - style.size, x1: x + w, y1: y + style.size * 0.3 };
}

// ---------------------------------------------------------------- page
function renderPage(rng, doc) {
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, W, H);
  const ink = "#111111";
  const formFont =
    doc.formFont ??
    rng.pick([
      ["Sans", "SansBold"],
      ["Lib", "LibBold"],
      ["Serif", "SerifBold"],
    ]);
  const M = 110;

  const valueStyle = () => {
    if (doc.level === "clean") return { kind: "print", font: doc.printFont, size: 30, color: "#101010" };
    const hf = doc.handFont;
    return {
      kind: "hand",
      font: hf.name,
      size: doc.handSize * hf.scale,
      color: doc.inkColor,
      slope: rng.f(-0.012, 0.012),
    };
  };
  const writeValue = (text, x, y) => {
    if (doc.blank) return { x0: x, y0: y, x1: x, y1: y };
    const st = valueStyle();
    return st.kind === "print" ? drawPrintValue(ctx, text, x, y, st) : drawHand(ctx, rng, text, x, y, st);
  };

  // --- header
  const clinic = doc.clinic;
  ctx.strokeStyle = "#1d4f91";
  ctx.lineWidth = 6;
  ctx.beginPath();
  ctx.arc(M + 45, 150, 42, 0, Math.PI * 2);
  ctx.stroke();
  ctx.lineWidth = 5;
  ctx.beginPath();
  ctx.moveTo(M + 45, 190);
  ctx.lineTo(M + 45, 150);
  ctx.lineTo(M + 22, 112);
  ctx.moveTo(M + 45, 150);
  ctx.lineTo(M + 70, 115);
  ctx.stroke();
  ctx.fillStyle = "#1d4f91";
  setFont(ctx, 44, formFont[1]);
  ctx.fillText(clinic.name, M + 110, 140);
  ctx.fillStyle = "#333333";
  setFont(ctx, 24, formFont[0]);
  ctx.fillText(`${clinic.addr}   ${clinic.phone}`, M + 110, 182);
  ctx.fillStyle = ink;
  ctx.fillRect(M, 215, W - 2 * M, 4);
  setFont(ctx, 36, formFont[1]);
  const title =
    doc.template === "carotid" ? "CAROTID DUPLEX ULTRASOUND WORKSHEET" : "LOWER EXTREMITY VENOUS DUPLEX WORKSHEET";
  const tw = ctx.measureText(title).width;
  ctx.fillText(title, (W - tw) / 2, 285);

  // --- demographics box
  const boxTop = 320,
    rowH = 88;
  const rows =
    doc.layout === "A"
      ? [
          [
            ["name", 0.62],
            ["mrn", 0.38],
          ],
          [
            ["dob", 0.5],
            ["exam", 0.5],
          ],
          [
            ["ref", 0.62],
            ["sono", 0.38],
          ],
          [["ind", 1]],
        ]
      : [
          [["name", 1]],
          [
            ["dob", 0.36],
            ["sex", 0.24],
            ["exam", 0.4],
          ],
          [
            ["ref", 0.6],
            ["mrn", 0.4],
          ],
          [
            ["ind", 0.7],
            ["sono", 0.3],
          ],
        ];
  ctx.strokeStyle = ink;
  ctx.lineWidth = 2;
  ctx.strokeRect(M, boxTop, W - 2 * M, rowH * rows.length + 20);
  const fieldText = {
    name: [doc.labels.name, doc.nameWritten],
    mrn: ["MRN:", doc.mrn],
    dob: [doc.labels.dob, doc.dob.text],
    exam: [doc.labels.exam, doc.exam.text],
    ref: ["Referring Dr:", doc.referrer],
    sono: ["Sonographer:", doc.sonographer],
    ind: ["Indication:", doc.indication],
    sex: ["Sex:", doc.sex],
  };
  const boxes = {};
  rows.forEach((row, ri) => {
    let x = M + 20;
    const y = boxTop + 20 + rowH * ri + 52;
    for (const [key, frac] of row) {
      const cellW = (W - 2 * M - 40) * frac;
      const [label, value] = fieldText[key];
      setFont(ctx, 28, formFont[1]);
      ctx.fillStyle = ink;
      ctx.fillText(label, x, y);
      const lw = ctx.measureText(label).width + 14;
      ctx.fillRect(x + lw, y + 8, cellW - lw - 30, 2); // write-on line
      const vx = x + lw + (doc.level === "clean" ? 10 : rng.f(4, 40));
      const vy = y + (doc.level === "clean" ? 0 : rng.f(-6, 4));
      boxes[key] = writeValue(value, vx, vy);
      x += cellW;
    }
  });

  // --- measurement table
  let ty = boxTop + rowH * rows.length + 80;
  setFont(ctx, 30, formFont[1]);
  ctx.fillStyle = ink;
  ctx.fillText(doc.template === "carotid" ? "Spectral Doppler Velocities" : "Reflux Times and Vein Diameters", M, ty);
  ty += 20;
  const rowsT = doc.template === "carotid" ? CAROTID_ROWS : VENOUS_ROWS;
  const heads =
    doc.template === "carotid"
      ? ["Vessel", "Rt PSV cm/s", "Rt EDV cm/s", "Lt PSV cm/s", "Lt EDV cm/s"]
      : ["Segment", "Rt reflux s", "Rt diam mm", "Lt reflux s", "Lt diam mm"];
  const colX = [M, M + 380, M + 660, M + 940, M + 1220, W - M];
  const trH = 62;
  const nRows = rowsT.length + 1;
  ctx.lineWidth = 2;
  ctx.strokeStyle = ink;
  for (let r = 0; r <= nRows; r++) {
    ctx.beginPath();
    ctx.moveTo(M, ty + r * trH);
    ctx.lineTo(W - M, ty + r * trH);
    ctx.stroke();
  }
  for (const cx of colX) {
    ctx.beginPath();
    ctx.moveTo(cx, ty);
    ctx.lineTo(cx, ty + nRows * trH);
    ctx.stroke();
  }
  ctx.fillStyle = "#e6e6e6";
  ctx.fillRect(M + 1, ty + 1, W - 2 * M - 2, trH - 2);
  ctx.fillStyle = ink;
  setFont(ctx, 25, formFont[1]);
  heads.forEach((h, i) => {
    ctx.fillText(h, colX[i] + 14, ty + 41);
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
    const ry = ty + trH * (ri + 1) + 43;
    setFont(ctx, 26, formFont[0]);
    ctx.fillStyle = ink;
    ctx.fillText(vessel, colX[0] + 14, ry);
    params.forEach(([side, param], ci) => {
      const m = doc.measurements.find((mm) => mm.vessel === vessel && mm.side === side && mm.param === param);
      if (!m) {
        if (doc.level === "noisy" && rng.chance(0.5)) writeValue("-", colX[ci + 1] + 90, ry);
        return;
      }
      const jx = doc.level === "clean" ? 40 : rng.f(20, 90);
      m.box = writeValue(m.written, colX[ci + 1] + jx, ry + (doc.level === "clean" ? 0 : rng.f(-5, 5)));
    });
  });
  ty += nRows * trH + 70;

  // --- checkboxes
  setFont(ctx, 26, formFont[0]);
  ctx.fillStyle = ink;
  const checks =
    doc.template === "carotid"
      ? ["Plaque: none", "smooth", "irregular", "calcified", "ulcerated"]
      : ["Deep system patent", "DVT", "Superficial thrombus", "Perforators"];
  let cx = M;
  for (const c of checks) {
    ctx.strokeRect(cx, ty - 24, 26, 26);
    if (rng.chance(0.4) && !doc.blank) {
      // tick mark
      ctx.strokeStyle = doc.level === "clean" ? ink : doc.inkColor;
      ctx.lineWidth = 4;
      ctx.beginPath();
      ctx.moveTo(cx + 3, ty - 10);
      ctx.lineTo(cx + 11, ty);
      ctx.lineTo(cx + 30, ty - 32);
      ctx.stroke();
      ctx.strokeStyle = ink;
      ctx.lineWidth = 2;
    }
    ctx.fillText(c, cx + 38, ty);
    cx += ctx.measureText(c).width + 90;
  }
  ty += 80;

  // --- impression (free text, mentions one measurement)
  setFont(ctx, 30, formFont[1]);
  ctx.fillStyle = ink;
  ctx.fillText("Impression / Comments:", M, ty);
  for (let i = 0; i < 3; i++) ctx.fillRect(M, ty + 70 + i * 66, W - 2 * M, 2);
  writeValue(doc.impression, M + 10, ty + 62);

  // --- small vessel diagram (clutter) and footer
  ctx.strokeStyle = "#555555";
  ctx.lineWidth = 3;
  const dx = W - M - 260,
    dy = H - 420;
  ctx.beginPath();
  ctx.moveTo(dx + 60, dy + 220);
  ctx.lineTo(dx + 60, dy + 110);
  ctx.lineTo(dx + 20, dy);
  ctx.moveTo(dx + 60, dy + 110);
  ctx.lineTo(dx + 110, dy + 5);
  ctx.moveTo(dx + 90, dy + 220);
  ctx.lineTo(dx + 90, dy + 115);
  ctx.lineTo(dx + 140, dy + 10);
  ctx.stroke();
  setFont(ctx, 22, formFont[0]);
  ctx.fillStyle = "#444444";
  ctx.fillText("Sonographer signature: ______________________", M, H - 150);
  ctx.fillText(`Form VL-${doc.template === "carotid" ? "102" : "215"} rev ${doc.formRev}    Page 1 of 1`, M, H - 105);
  return { canvas, boxes };
}

// ---------------------------------------------------------------- photo effects (noisy level)
async function photoEffects(rng, pngBuf) {
  const angle = rng.f(1, 4) * (rng.chance(0.5) ? -1 : 1);
  const desk = rng.pick([
    { r: 96, g: 78, b: 60 },
    { r: 60, g: 62, b: 70 },
    { r: 170, g: 160, b: 140 },
  ]);
  const margin = Math.round(rng.f(40, 110));
  // paper slightly off-white, then rotate on a desk-coloured background
  const img = sharp(pngBuf)
    .flatten({ background: "#ffffff" })
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: desk })
    .rotate(angle, { background: desk });
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  // uneven lighting: linear gradient from a random corner + vignette + optional soft shadow band; warm cast; noise
  const gx = rng.f(-1, 1),
    gy = rng.f(-1, 1);
  const gmin = rng.f(0.6, 0.8);
  const warm = [rng.f(0.98, 1.0), rng.f(0.93, 0.98), rng.f(0.82, 0.92)];
  const noiseSd = rng.f(4, 11);
  const shadow = rng.chance(0.5) ? { x: rng.f(0.2, 0.8) * width, w: rng.f(80, 250), k: rng.f(0.15, 0.3) } : null;
  const cxm = width / 2,
    cym = height / 2,
    rmax = Math.hypot(cxm, cym);
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = (x / width - 0.5) * gx + (y / height - 0.5) * gy; // -1..1
      let L = gmin + (1 - gmin) * (0.5 + u * 0.5);
      const r = Math.hypot(x - cxm, y - cym) / rmax;
      L *= 1 - 0.25 * r * r;
      if (shadow) {
        const d = (x + 0.3 * y - shadow.x) / shadow.w;
        L *= 1 - shadow.k * Math.exp(-d * d);
      }
      const iIn = (y * width + x) * channels,
        iOut = (y * width + x) * 3;
      const n = rng.gauss() * noiseSd;
      for (let c = 0; c < 3; c++) {
        const v = data[iIn + c] * L * warm[c] + n;
        out[iOut + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
  const scale = rng.f(0.75, 1.0); // phone photos are often lower resolution than a 200 dpi scan
  const quality = rng.i(35, 70);
  const blur = rng.f(0.5, 1.3);
  const jpg = await sharp(out, { raw: { width, height, channels: 3 } })
    .resize(Math.round(width * scale))
    .blur(blur)
    .jpeg({ quality, chromaSubsampling: "4:2:0", mozjpeg: false })
    .toBuffer();
  return {
    buf: jpg,
    params: {
      angleDeg: +angle.toFixed(2),
      blurSigma: +blur.toFixed(2),
      jpegQuality: quality,
      scale: +scale.toFixed(3),
      noiseSd: +noiseSd.toFixed(1),
      marginPx: margin,
      shadow: !!shadow,
    },
  };
}

async function toPdf(imgBuf, isJpeg, widthPx, heightPx, dpi) {
  const { PDFDocument } = await import("pdf-lib");
  const pdf = await PDFDocument.create();
  // fixed metadata dates so the PDF is reproducible
  pdf.setCreationDate(new Date(Date.UTC(2024, 0, 1)));
  pdf.setModificationDate(new Date(Date.UTC(2024, 0, 1)));
  pdf.setProducer("ocrlab generator");
  pdf.setCreator("ocrlab generator");
  const img = isJpeg ? await pdf.embedJpg(imgBuf) : await pdf.embedPng(imgBuf);
  const wPt = (widthPx / dpi) * 72,
    hPt = (heightPx / dpi) * 72;
  const page = pdf.addPage([wPt, hPt]);
  page.drawImage(img, { x: 0, y: 0, width: wPt, height: hPt });
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

// ---------------------------------------------------------------- one clinic's form
function clinicForm() {
  const rng = makeRng(hashSeed(FORM_SEED, -1));
  return {
    template: rng.chance(0.55) ? "carotid" : "venous",
    layout: rng.pick(["A", "B"]),
    clinic: rng.pick(CLINICS),
    labels: { name: rng.pick(LABELS.name), dob: rng.pick(LABELS.dob), exam: rng.pick(LABELS.exam) },
    formRev: rng.i(1, 9),
    formFont: rng.pick([
      ["Sans", "SansBold"],
      ["Lib", "LibBold"],
      ["Serif", "SerifBold"],
    ]),
  };
}

// ---------------------------------------------------------------- main
if (BLANK) {
  if (FORM_SEED === null) throw new Error("--blank needs --form-seed");
  const rng = makeRng(hashSeed(FORM_SEED, -2));
  const doc = {
    ...clinicForm(),
    level: "clean",
    blank: true,
    measurements: [],
    nameWritten: "",
    dob: { text: "" },
    exam: { text: "" },
    mrn: "",
    referrer: "",
    sonographer: "",
    sex: "",
    indication: "",
    impression: "",
  };
  fs.writeFileSync(path.join(OUT, "blank.png"), renderPage(rng, doc).canvas.toBuffer("image/png"));
  process.stdout.write("blank.png\n");
}
const manifest = [];
for (let i = 0; i < COUNT; i++) {
  const level = i < Math.ceil(COUNT / 2) ? "clean" : "noisy";
  const rng = makeRng(hashSeed(SEED, i));
  const template = rng.chance(0.55) ? "carotid" : "venous";
  const first = rng.pick(FIRST),
    last = rng.pick(LAST);
  const middle = rng.chance(0.2) ? ` ${String.fromCharCode(65 + rng.i(0, 25))}.` : "";
  const nameStyle = rng.pick(["First Last", "First Last", "LAST, First", "FIRST LAST"]);
  const nameWritten =
    nameStyle === "First Last"
      ? `${first}${middle} ${last}`
      : nameStyle === "LAST, First"
        ? `${last.toUpperCase()}, ${first}${middle}`
        : `${first}${middle} ${last}`.toUpperCase();
  const dobD = randomDate(rng, 1931, 2006);
  const examD = randomDate(rng, 2019, 2026);
  const doc = {
    level,
    template,
    layout: rng.pick(["A", "B"]),
    clinic: rng.pick(CLINICS),
    labels: { name: rng.pick(LABELS.name), dob: rng.pick(LABELS.dob), exam: rng.pick(LABELS.exam) },
    nameWritten,
    dob: { ...formatDate(rng, "dob", dobD), iso: isoOf(dobD.y, dobD.m, dobD.d) },
    exam: { ...formatDate(rng, "exam", examD), iso: isoOf(examD.y, examD.m, examD.d) },
    mrn: `${rng.pick(["MRN", "VL", ""])}${rng.i(100000, 9999999)}`,
    referrer: rng.pick(DOCTORS),
    sonographer: rng.pick(SONOGRAPHERS),
    sex: rng.pick(["M", "F"]),
    indication: rng.pick(template === "carotid" ? CAROTID_INDICATIONS : VENOUS_INDICATIONS),
    formRev: rng.i(1, 9),
    printFont: rng.pick(PRINT_VALUE_FONTS),
    handFont: rng.pick(HAND_FONTS),
    handSize: rng.f(36, 46),
    inkColor: rng.pick(["#1b2a8c", "#14206b", "#161616", "#2a2a40"]),
  };
  if (FORM_SEED !== null) Object.assign(doc, clinicForm());
  if (doc.template !== template)
    doc.indication = rng.pick(doc.template === "carotid" ? CAROTID_INDICATIONS : VENOUS_INDICATIONS);
  doc.measurements = doc.template === "carotid" ? carotidValues(rng) : venousValues(rng);
  // impression mentions the highest PSV / longest reflux
  if (doc.template === "carotid") {
    const top = doc.measurements
      .filter((m) => m.param === "PSV" && m.vessel.startsWith("ICA"))
      .sort((a, b) => b.value - a.value)[0];
    doc.impression = top
      ? `${top.side} ICA PSV ${top.written} cm/s${top.value > 230 ? " c/w 70-99% stenosis" : " no sig. stenosis"}`
      : "No significant stenosis";
  } else {
    const top = doc.measurements.filter((m) => m.param === "Reflux").sort((a, b) => b.value - a.value)[0];
    doc.impression = top
      ? `${top.side} ${top.vessel} reflux ${top.written} s${top.value > 0.5 ? " - incompetent" : " - competent"}`
      : "No reflux";
  }
  const { canvas, boxes } = renderPage(rng, doc);
  const png = canvas.toBuffer("image/png");
  const id = `ws-${level}-${String(i).padStart(3, "0")}`;
  let file,
    imgBuf,
    photo = null,
    wPx = W,
    hPx = H;
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
    const dpi = level === "clean" ? 200 : 200 * (photo?.scale ?? 1);
    fs.writeFileSync(path.join(OUT, pdfFile), await toPdf(imgBuf, level !== "clean", wPx, hPx, dpi));
  }
  const gt = {
    id,
    seed: SEED,
    formSeed: FORM_SEED,
    index: i,
    level,
    template: doc.template,
    layout: doc.layout,
    files: { image: file, pdf: pdfFile },
    imageSize: { width: wPx, height: hPx },
    patientName: doc.nameWritten,
    patientNameTokens: `${first}${middle} ${last}`.split(/\s+/).filter(Boolean),
    patientDob: doc.dob.iso,
    examDate: doc.exam.iso,
    written: { patientName: doc.nameWritten, patientDob: doc.dob.text, examDate: doc.exam.text },
    dateFormats: { patientDob: doc.dob.format, examDate: doc.exam.format },
    labels: doc.labels,
    otherFields: {
      mrn: doc.mrn,
      referrer: doc.referrer,
      sonographer: doc.sonographer,
      indication: doc.indication,
      sex: doc.sex,
    },
    impression: doc.impression,
    measurements: doc.measurements.map(({ box, ...m }) => m),
    valueFont: level === "clean" ? doc.printFont : doc.handFont.name,
    photo,
    // boxes of the three fields on the undistorted page (pixels, A4@200dpi); not valid after photo effects
    fieldBoxesUndistorted: { patientName: boxes.name, patientDob: boxes.dob, examDate: boxes.exam },
  };
  fs.writeFileSync(path.join(OUT, `${id}.json`), JSON.stringify(gt, null, 2));
  manifest.push({ id, level, image: file, pdf: pdfFile, groundTruth: `${id}.json` });
  process.stdout.write(`${id} ${file}${pdfFile ? " +pdf" : ""}\n`);
}
fs.writeFileSync(
  path.join(OUT, "manifest.json"),
  JSON.stringify({ seed: SEED, count: COUNT, documents: manifest }, null, 2),
);
