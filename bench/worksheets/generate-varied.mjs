#!/usr/bin/env node
// Varied-layout vascular worksheet generator with ground truth for every field (issue 23 item 2).
//
// Derived from /work/shared/worksheets/generate-worksheets.mjs (same handwriting, photo effects and measurement
// tables), but every sheet draws its own form: title, label wordings and their order, one or two columns, values
// written right of the label, below it, in a boxed cell or in a key/value table, a name as one field or split into
// surname and given names, optional header fields, and the comments section's own label.
//
//   node bench/worksheets/generate-varied.mjs --seed 101 --count 40 --out /tmp/varied-101 [--pdf-every 7] [--wide]
//
// --wide draws wider forms, from a random stream of its own (without it every seed gives the very same files as
// before): more label wordings, labels in capitals or without their colon, values at a column of their own or on a
// dotted leader, labels right-aligned against their values, a label over its box, three fields a line, condensed,
// narrow and monospaced form fonts, three more handwriting fonts.
//
// --leaders draws every sheet's header as a typed form with leaders, from a random stream of its own (without it every
// seed gives the very same files as before): the label, then a run of points, underscores or spaced points up to a
// column (or a fixed length), then the value after the run ("Referring ........ Dr X"); or the value written over a
// dotted line (the --wide "dotted" style); labels with or without their colon.
//
// --plaque draws, on carotid sheets, a plaque section per side (its vessel in the heading) with echogenicity and
// surface check boxes, worded, boxed and marked in varied ways, from a random stream of its own (without it every
// seed gives the very same files as before); the ticked ones are the ground truth's `plaque` observations
// ({ site, side, finding } in the product's vocabulary) and `plaqueForm` says how the section looked.
//
// Writes ws-<clean|noisy>-NNN.{png,jpg,json}, some .pdf, and manifest.json (the first half clean, the second noisy).
// Ground truth: patientName/patientNameTokens/patientDob/examDate as the original generator, plus `header`
// { indication, referringPhysician, mrn, sonographer, sex ("male"/"female"), comments }, null when the sheet has no
// such field, and `form` (how the sheet was laid out). Same seed, fonts and package versions: same files.
// Needs Debian's fonts (see /work/shared/worksheets/README.md); @napi-rs/canvas, sharp and pdfkit come with the repo.
// The random generator, fonts, dates, measurement values, handwriting and photo effects are ../worksheet-kit/'s.

import fs from "node:fs";
import path from "node:path";
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import PDFDocument from "pdfkit";
import { parseArgs } from "../worksheet-kit/cli.mjs";
import { formatDate, isoOf, randomDate } from "../worksheet-kit/dates.mjs";
import { drawHand, drawPrintValue, H, W } from "../worksheet-kit/draw.mjs";
import { HAND_FONTS, setFont } from "../worksheet-kit/fonts.mjs";
import {
  CAROTID_ROWS,
  carotidValues,
  TABLE_COLUMNS,
  VENOUS_ROWS,
  venousValues,
} from "../worksheet-kit/measurements.mjs";
import { FIRST as ORIGINAL_FIRST, LAST as ORIGINAL_LAST } from "../worksheet-kit/original-content.mjs";
import { sheetImage } from "../worksheet-kit/photo.mjs";
import { drawPlaque, plaqueContent, plaqueTruth } from "../worksheet-kit/plaque.mjs";
import { hashSeed, makeRng } from "../worksheet-kit/rng.mjs";

const args = parseArgs();
const SEED = Number(args.seed ?? 101);
const COUNT = Number(args.count ?? 40);
const OUT = path.resolve(args.out ?? "varied");
const PDF_EVERY = Number(args["pdf-every"] ?? 7);
const WIDE = args.wide !== undefined;
const PLAQUE = args.plaque !== undefined;
const LEADERS = args.leaders !== undefined;
fs.mkdirSync(OUT, { recursive: true });

const FORM_FONTS = [
  ["Sans", "SansBold"],
  ["Lib", "LibBold"],
  ["Serif", "SerifBold"],
  ["LibSerif", "LibSerifBold"],
];
const PRINT_VALUE_FONTS = ["Sans", "Lib", "Mono", "Serif", "LibSerif"];

// The original generator's names (worksheet-kit/original-content.mjs) with a few more; the order is part of the
// output, so names are only ever appended (and "Van der Berg" dropped).
const FIRST = [...ORIGINAL_FIRST, "Eleanor", "Graham", "Priya", "Hamish", "Beatrice"];
const LAST = [...ORIGINAL_LAST.filter((n) => n !== "Van der Berg"), "Sutherland", "Nakamura"];
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
// --wide: more wordings clinics use, drawn beside the pools above.
const WIDE_LABELS = {
  name: [
    "Name of patient:",
    "Patient's full name:",
    "Pt. Name",
    "PATIENT",
    "Patient name / ID:",
    "Name (Last, First):",
    "Patient Name:",
    "PT NAME:",
  ],
  surname: ["Family Name:", "LAST NAME:", "Surname (block letters):"],
  given: ["Given Name:", "First Name(s):", "Christian name:"],
  dob: ["Date of Birth:", "D.O.B:", "DOB (dd/mm/yyyy):", "Birth date", "Date of birth (DD/MM/YY)", "D/O/B:"],
  exam: [
    "Date:",
    "Date of examination:",
    "Exam Date (dd/mm/yyyy):",
    "Scan Date:",
    "Visit date:",
    "Procedure date:",
    "DATE",
    "Date of Study:",
  ],
  referringPhysician: ["Referring Dr:", "Ref. Physician:", "Requested by:", "Referring MO:", "GP / Referrer:"],
  mrn: ["MRN #:", "Hosp. No:", "Record No.:", "ID No.:", "Patient No:", "UR Number:"],
  indication: ["Reason for referral:", "Clinical Information:", "Indications:", "Symptoms:", "Reason:"],
  sonographer: ["Sonographer initials:", "Technician:", "Operator:", "Scanned by", "TECH"],
  sex: ["M/F:", "Sex (M/F):", "Gender"],
  comments: ["Findings:", "Remarks:", "Technologist comments:", "Comments / findings:", "Sonographer notes:"],
};
const WIDE_FORM_FONTS = [
  ["SansCond", "SansCondBold"],
  ["Narrow", "NarrowBold"],
  ["SansMono", "SansMonoBold"],
  ["SerifCond", "SerifCondBold"],
];
const WIDE_HAND_FONTS = [
  { name: "HBWBuild", scale: 1.05 },
  { name: "HBWCreate", scale: 1.05 },
  { name: "HBWLearn", scale: 1.05 },
];
for (const [name, file] of [
  ["SansCond", "truetype/dejavu/DejaVuSansCondensed.ttf"],
  ["SansCondBold", "truetype/dejavu/DejaVuSansCondensed-Bold.ttf"],
  ["Narrow", "truetype/liberation/LiberationSansNarrow-Regular.ttf"],
  ["NarrowBold", "truetype/liberation/LiberationSansNarrow-Bold.ttf"],
  ["SansMono", "truetype/dejavu/DejaVuSansMono.ttf"],
  ["SansMonoBold", "truetype/dejavu/DejaVuSansMono-Bold.ttf"],
  ["SerifCond", "truetype/dejavu/DejaVuSerifCondensed.ttf"],
  ["SerifCondBold", "truetype/dejavu/DejaVuSerifCondensed-Bold.ttf"],
  ["HBWBuild", "opentype/bwht/BecauseWeBuild-Regular.otf"],
  ["HBWCreate", "opentype/bwht/BecauseWeCreate-Regular.otf"],
  ["HBWLearn", "opentype/bwht/BecauseWeLearn-Regular.otf"],
]) {
  if (WIDE) GlobalFonts.registerFromPath(`/usr/share/fonts/${file}`, `ws${name}`);
}

/** --wide: the sheet's labels reworded, in capitals or without their colon now and then, from the wide stream. */
function widenLabels(wrng, labels) {
  const out = {};
  for (const [key, label] of Object.entries(labels)) {
    let l = wrng.chance(0.5) ? wrng.pick(WIDE_LABELS[key]) : label;
    if (wrng.chance(0.15)) l = l.toUpperCase();
    if (wrng.chance(0.15) && key !== "comments") l = l.replace(/:$/, "");
    out[key] = l;
  }
  return out;
}

// Distractors some forms carry; their values must never be taken for another field.
const DISTRACTORS = [
  ["Age:", (doc) => String(2026 - doc.dobParts.y)],
  ["Ward:", () => "Outpatient"],
  ["Phone:", (_doc, rng) => `04${rng.i(10, 99)} ${rng.i(100, 999)} ${rng.i(100, 999)}`],
  ["Height:", (_doc, rng) => `${rng.i(150, 195)} cm`],
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
    return st.kind === "print" ? drawPrintValue(ctx, text, x, y, st) : drawHand(ctx, rng, text, x, y, st);
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
  if (["below", "boxed", "above-box"].includes(doc.form.fieldStyle) && fields.length > 6) doc.form.columns = 2;
  const cols = doc.form.columns;
  const top = 310;
  const labelSize = doc.form.labelSize;
  const innerW = W - 2 * M;
  const colW = innerW / cols;
  const boxes = {};
  const style = doc.form.fieldStyle;
  const rowH = ["inline", "table", "aligned", "dotted", "right", "flow", "leader"].includes(style)
    ? doc.form.rowH
    : doc.form.rowH + 40;
  // --wide "flow": fields one after another along the line ("Name: ____  DOB: ____  Date: ____"), each with room
  // for its value, wrapping at the margin.
  const flow = style === "flow" ? flowLayout(ctx, doc, fields, M) : null;
  const nRows = flow ? flow.rows : Math.ceil(fields.length / cols);
  // --wide "aligned"/"right": values start at one column after the longest label.
  setFont(ctx, labelSize, doc.form.boldLabels ? formBold : formFont);
  const valueAt = Math.max(...fields.map(([, label]) => ctx.measureText(label).width)) + 30;
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
    if (flow) {
      const { x: fx, row: fr, room } = flow.at[i];
      const y = top + 10 + fr * rowH + rowH * 0.62;
      ctx.fillText(label, fx, y);
      if (doc.form.underline) ctx.fillRect(fx + lw + 10, y + 8, room, 2);
      boxes[key] = writeValue(value, fx + lw + 20 + jitter(-6, 16), y + jitter(-6, 4));
    } else if (style === "aligned" || style === "right" || style === "dotted") {
      const y = yTop + rowH * 0.62;
      const vx = style === "dotted" ? x + lw + 16 : x + valueAt;
      ctx.fillText(label, style === "right" ? x + valueAt - 24 - lw : x, y);
      if (style === "dotted") {
        for (let dx = vx; dx < x + colW - 40; dx += 9) ctx.fillRect(dx, y + 2, 3, 3);
      } else if (doc.form.underline) ctx.fillRect(vx - 6, y + 8, Math.max(120, colW - valueAt - 40), 2);
      boxes[key] = writeValue(value, vx + 6 + jitter(-4, 24), y + jitter(-6, 4));
    } else if (style === "leader") {
      // --leaders: "Label ........ value": a typed run of the leader's glyph up to a column or for a set length.
      const y = yTop + rowH * 0.62;
      ctx.fillText(label, x, y);
      const from = x + lw + doc.form.leaderGap;
      const to = Math.max(
        from + 60,
        doc.form.leaderTo === "column" ? x + valueAt + doc.form.leaderRun : from + doc.form.leaderRun,
      );
      let run = "";
      while (ctx.measureText(run + doc.form.leaderGlyph).width < to - from) run += doc.form.leaderGlyph;
      ctx.fillText(run, from, y);
      boxes[key] = writeValue(value, from + ctx.measureText(run).width + 12 + jitter(0, 16), y + jitter(-6, 4));
    } else if (style === "above-box") {
      const y = yTop + labelSize + 2;
      ctx.fillText(label, x, y);
      ctx.strokeRect(x - 6, y + 10, colW - 50, rowH - labelSize - 22);
      boxes[key] = writeValue(value, x + 8 + jitter(0, 30), y + 10 + (rowH - labelSize - 22) * 0.75 + jitter(-4, 2));
    } else if (style === "inline") {
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
  const params = TABLE_COLUMNS[doc.template];
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

  if (doc.plaque) {
    const prng = makeRng(hashSeed(SEED, doc.index, "varied-plaque-ink"));
    const markInk = doc.level === "clean" ? "#161616" : doc.inkColor;
    ty = drawPlaque(ctx, prng, doc.plaque, { M, ink, markInk, formFont, formBold, level: doc.level }, ty) + 20;
  }

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

/** --wide "flow" layout: where each field's label starts, on which row, and the room left for its value. */
function flowLayout(ctx, doc, fields, M) {
  const at = [];
  let x = M + 18;
  let row = 0;
  for (const [, label, value] of fields) {
    setFont(ctx, doc.form.labelSize, doc.form.boldLabels ? doc.form.fonts[1] : doc.form.fonts[0]);
    const lw = ctx.measureText(label).width;
    // Handwriting runs wider than print: room for the value as the writer would need it.
    const room = Math.max(
      160,
      value.length * (doc.level === "clean" ? 0.62 * doc.form.valueSize : 0.75 * doc.handSize) + 40,
    );
    if (x > M + 18 && x + lw + 20 + room > W - M) {
      row++;
      x = M + 18;
    }
    at.push({ x, row, room });
    x += lw + 20 + room + doc.form.flowGap;
  }
  return { at, rows: row + 1 };
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
  const rng = makeRng(hashSeed(SEED, i, "varied"));
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
  if (WIDE) {
    // Its own stream: the main one draws exactly what it draws without --wide.
    const wrng = makeRng(hashSeed(SEED, i, "varied-wide"));
    doc.labels = widenLabels(wrng, doc.labels);
    doc.form.fieldStyle = wrng.pick([
      "inline",
      "below",
      "boxed",
      "table",
      "aligned",
      "right",
      "dotted",
      "above-box",
      "flow",
    ]);
    if (wrng.chance(0.4)) doc.form.fonts = wrng.pick(WIDE_FORM_FONTS);
    if (wrng.chance(0.3)) doc.handFont = wrng.pick(WIDE_HAND_FONTS);
    doc.form.flowGap = wrng.i(30, 90);
    if (["aligned", "right", "dotted"].includes(doc.form.fieldStyle)) doc.form.columns = wrng.pick([1, 1, 2]);
  }
  if (LEADERS) {
    // Its own stream, like --wide.
    const lrng = makeRng(hashSeed(SEED, i, "varied-leaders"));
    doc.form.fieldStyle = lrng.pick(["leader", "leader", "leader", "dotted"]);
    doc.form.leaderGlyph = lrng.pick([".", ".", "_", ". ", "-"]);
    doc.form.leaderTo = lrng.pick(["column", "fixed"]);
    doc.form.leaderRun = lrng.i(40, 160);
    doc.form.leaderGap = lrng.i(4, 20);
    doc.form.columns = 1;
    if (lrng.chance(0.5)) {
      doc.labels = Object.fromEntries(
        Object.entries(doc.labels).map(([k, l]) => [k, k === "comments" ? l : l.replace(/:$/, "")]),
      );
    }
  }
  if (PLAQUE && template === "carotid") {
    // Its own stream, like --wide.
    doc.plaque = plaqueContent(makeRng(hashSeed(SEED, i, "varied-plaque")));
    doc.index = i;
  }
  const distractor = rng.chance(0.35) ? rng.pick(DISTRACTORS) : null;
  doc.distractor = distractor ? [distractor[0], distractor[1](doc, rng)] : null;
  doc.measurements = template === "carotid" ? carotidValues(rng) : venousValues(rng);
  const { canvas, boxes } = renderPage(rng, doc);
  const png = canvas.toBuffer("image/png");
  const id = `ws-${level}-${String(i).padStart(3, "0")}`;
  const shot = await sheetImage(rng, level, png, id, W, H);
  const { file, imgBuf, wPx, hPx } = shot;
  // this generator records fewer photo parameters than the original
  const photo = shot.photo && {
    angleDeg: shot.photo.angleDeg,
    jpegQuality: shot.photo.jpegQuality,
    scale: shot.photo.scale,
  };
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
      Object.entries(doc.labels).filter(([k]) =>
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
    ...(doc.plaque
      ? { plaque: plaqueTruth(doc.plaque), plaqueForm: { ...doc.plaque, sections: doc.plaque.sections.length } }
      : {}),
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
