#!/usr/bin/env node
// Sonoscribe: a copy of /work/shared/worksheets/generate-worksheets.mjs (same drawing, same ground truth) with
// two additions for the reading-template bench and tests (issue 23):
//   --form-seed N   every sheet uses ONE clinic form: template, layout, clinic, label wordings, font and revision
//                   come from N, values and photo effects still vary per sheet (from --seed)
//   --blank         also writes blank.png: that form printed with no values, as a clinic would scan it
//   --wordings novel  the form words every label in a way the reader's lexicon does not know ("Client:", "Natal
//                   day:", "Sent by:"...): a form new to the reader, for learning from corrections (issue 23 item 4)
//   --clinic-forms  every sheet draws another clinic's header form (../worksheet-kit/clinic-forms.mjs), from a random
//                   stream of its own (without it every seed gives the very same files as before): labels over
//                   their value in boxes, a label/value grid, two columns, a side box or the fields at the foot;
//                   split and "LAST, First" names; month names, US month-first dates, an age beside the DOB;
//                   sex circled on "M / F"; letterheads with their own dates. Ground truth adds `header` (as
//                   generate-varied's) and `form`.
// PDFs only with --pdf-every N (default 0 here: the same files as before), written with pdfkit.
//
// Synthetic vascular-ultrasound worksheet generator with ground truth.
//
// Usage:
//   node bench/form-family/generate-form-family.mjs [--seed 42] [--count 40] [--out corpus] [--form-seed N] [--blank]
//
// Produces, for each document i (0-based), in --out:
//   ws-<level>-<NNN>.png   (level "clean": printed values, lossless, no distortion)
//   ws-<level>-<NNN>.jpg   (level "noisy": handwriting fonts + phone-photo effects)
//   ws-<level>-<NNN>.json  ground truth (see README.md)
//   ws-<level>-<NNN>.pdf   single-page PDF of the same image, for every --pdf-every'th document
//   manifest.json          list of all documents
// The first half of --count is "clean", the second half "noisy".
// Same --seed (and same package versions + fonts) => byte-identical corpus.
// The drawing, content and photo effects are shared with the other generators in ../worksheet-kit/.
//
// Needs: npm @napi-rs/canvas, sharp, pdfkit (only with --pdf-every) ; Debian fonts (see README.md).

import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "../worksheet-kit/cli.mjs";
import { clinicFormTruth, clinicForm as drawnClinicForm } from "../worksheet-kit/clinic-forms.mjs";
import { H, W } from "../worksheet-kit/draw.mjs";
import { CAROTID_INDICATIONS, CLINICS, LABELS, VENOUS_INDICATIONS } from "../worksheet-kit/original-content.mjs";
import { renderPage } from "../worksheet-kit/original-page.mjs";
import { addFindings, originalDoc, originalGroundTruth } from "../worksheet-kit/original-sheet.mjs";
import { sheetImage } from "../worksheet-kit/photo.mjs";
import { hashSeed, makeRng } from "../worksheet-kit/rng.mjs";

// ---------------------------------------------------------------- CLI
const args = parseArgs();
const SEED = Number(args.seed ?? 42);
const COUNT = Number(args.count ?? 40);
const OUT = path.resolve(args.out ?? "corpus");
const PDF_EVERY = Number(args["pdf-every"] ?? 0);
const FORM_SEED = args["form-seed"] === undefined ? null : Number(args["form-seed"]);
const BLANK = args.blank === "true";
/** Label wordings no lexicon of the reader holds (checked against server/ocr/field-labels.ts when chosen). */
const NOVEL_LABELS = {
  name: "Client:",
  dob: "Natal day:",
  exam: "Visit on:",
  mrn: "File no.:",
  ref: "Sent by:",
  sono: "Imaged by:",
  ind: "Query:",
  sex: "Male/Female:",
  comments: "Observations:",
};
const NOVEL = args.wordings === "novel";
const CLINIC_FORMS = args["clinic-forms"] !== undefined;
fs.mkdirSync(OUT, { recursive: true });

// ---------------------------------------------------------------- PDF (only with --pdf-every; pdfkit is loaded then)
// The image on one page, as the varied generator writes its PDFs (pdfkit is a project dependency; pdf-lib is not).
async function toPdf(imgBuf, _isJpeg, widthPx, heightPx, dpi) {
  const { default: PDFDocument } = await import("pdfkit");
  const wPt = (widthPx / dpi) * 72;
  const hPt = (heightPx / dpi) * 72;
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({
      size: [wPt, hPt],
      margin: 0,
      // fixed metadata dates so the PDF is reproducible
      info: { Producer: "ocrlab generator", Creator: "ocrlab generator", CreationDate: new Date(Date.UTC(2024, 0, 1)) },
    });
    const chunks = [];
    pdf.on("data", (c) => chunks.push(c));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
    pdf.image(imgBuf, 0, 0, { width: wPt, height: hPt });
    pdf.end();
  });
}

// ---------------------------------------------------------------- one clinic's form
function clinicForm() {
  const rng = makeRng(hashSeed(FORM_SEED, -1));
  return {
    template: rng.chance(0.55) ? "carotid" : "venous",
    layout: rng.pick(["A", "B"]),
    clinic: rng.pick(CLINICS),
    labels: NOVEL
      ? NOVEL_LABELS
      : { name: rng.pick(LABELS.name), dob: rng.pick(LABELS.dob), exam: rng.pick(LABELS.exam) },
    formRev: rng.i(1, 9),
    formFont: rng.pick([
      ["Sans", "SansBold"],
      ["Lib", "LibBold"],
      ["Serif", "SerifBold"],
    ]),
  };
}

// ---------------------------------------------------------------- --clinic-forms
const dateParts = (iso) => {
  const [y, m, d] = iso.split("-").map(Number);
  return { y, m, d };
};
// The sheet's header drawn as another clinic's form: the patient's name and dates rewritten as that form writes them.
function withClinicForm(hrng, doc, nameTokens) {
  const middle = /^[A-Z]\.$/.test(nameTokens[1] ?? "") ? ` ${nameTokens[1]}` : "";
  const last = nameTokens.slice(middle ? 2 : 1).join(" ");
  const form = drawnClinicForm(hrng, {
    first: nameTokens[0],
    middle,
    last,
    dobD: dateParts(doc.dob.iso),
    examD: dateParts(doc.exam.iso),
    sex: doc.sex,
    mrn: doc.mrn,
    referrer: doc.referrer,
    sonographer: doc.sonographer,
    indication: doc.indication,
  });
  form.valueFont = doc.printFont;
  doc.clinicForm = form;
  doc.formFont = form.font;
  const value = (key) => form.fields.find((f) => f.key === key)?.value;
  doc.nameWritten = value("name") ?? `${value("surname")} / ${value("given")}`;
  doc.dob = { ...doc.dob, text: value("dob"), format: form.dateFormats.patientDob };
  doc.exam = { ...doc.exam, text: value("exam"), format: form.dateFormats.examDate };
  doc.labels = Object.fromEntries(form.fields.map((f) => [f.key, f.label]));
}
function clinicTruth(doc) {
  return {
    header: {
      indication: doc.indication,
      referringPhysician: doc.referrer,
      mrn: doc.mrn,
      sonographer: doc.sonographer,
      sex: doc.sex === "M" ? "male" : "female",
      comments: doc.impression,
    },
    form: clinicFormTruth(doc.clinicForm),
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
  const { doc, nameTokens } = originalDoc(rng, level);
  const template = doc.template;
  if (FORM_SEED !== null) Object.assign(doc, clinicForm());
  if (doc.template !== template)
    doc.indication = rng.pick(doc.template === "carotid" ? CAROTID_INDICATIONS : VENOUS_INDICATIONS);
  addFindings(rng, doc);
  if (CLINIC_FORMS) withClinicForm(makeRng(hashSeed(SEED, i, "ff-clinic")), doc, nameTokens);
  const { canvas, boxes } = renderPage(rng, doc);
  const png = canvas.toBuffer("image/png");
  const id = `ws-${level}-${String(i).padStart(3, "0")}`;
  const { file, imgBuf, photo, wPx, hPx } = await sheetImage(rng, level, png, id, W, H);
  fs.writeFileSync(path.join(OUT, file), imgBuf);
  let pdfFile = null;
  if (PDF_EVERY > 0 && i % PDF_EVERY === 0) {
    pdfFile = `${id}.pdf`;
    const dpi = level === "clean" ? 200 : 200 * (photo?.scale ?? 1);
    fs.writeFileSync(path.join(OUT, pdfFile), await toPdf(imgBuf, level !== "clean", wPx, hPx, dpi));
  }
  const gt = originalGroundTruth(
    { id, seed: SEED, index: i, level, doc, nameTokens, file, pdfFile, wPx, hPx, photo, boxes },
    {
      afterSeed: { formSeed: FORM_SEED },
      beforePhoto: CLINIC_FORMS ? clinicTruth(doc) : {},
    },
  );

  fs.writeFileSync(path.join(OUT, `${id}.json`), JSON.stringify(gt, null, 2));
  manifest.push({ id, level, image: file, pdf: pdfFile, groundTruth: `${id}.json` });
  process.stdout.write(`${id} ${file}${pdfFile ? " +pdf" : ""}\n`);
}
fs.writeFileSync(
  path.join(OUT, "manifest.json"),
  JSON.stringify({ seed: SEED, count: COUNT, documents: manifest }, null, 2),
);
