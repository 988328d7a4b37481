// One sheet's content as the original generator draws it: a patient, dates, the other header fields, the fonts
// and ink, then the measurements and an impression that fits them. Shared by generate-form-family and
// generate-handwriting; the order of the draws from rng is part of the output.
import { formatDate, isoOf, randomDate } from "./dates.mjs";
import { HAND_FONTS } from "./fonts.mjs";
import { carotidValues, venousValues } from "./measurements.mjs";
import {
  CAROTID_INDICATIONS,
  CLINICS,
  DOCTORS,
  FIRST,
  LABELS,
  LAST,
  PRINT_VALUE_FONTS,
  SONOGRAPHERS,
  VENOUS_INDICATIONS,
} from "./original-content.mjs";

// Everything but the measurements, so that a caller can still change the form (template, layout...) first.
// `nameTokens` is the patient's name as ground truth (whatever the written style).
export function originalDoc(rng, level) {
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
  return { doc, nameTokens: `${first}${middle} ${last}`.split(/\s+/).filter(Boolean) };
}

// The measurements for the doc's template, and an impression that mentions the highest PSV / longest reflux.
export function addFindings(rng, doc) {
  doc.measurements = doc.template === "carotid" ? carotidValues(rng) : venousValues(rng);
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
}

// The ground truth of one sheet, as the original generator writes it. The key order is part of the output:
// `afterSeed` and `beforePhoto` hold a generator's own keys (form-family's formSeed, handwriting's digits).
export function originalGroundTruth(sheet, { afterSeed = {}, beforePhoto = {} } = {}) {
  const { id, seed, index, level, doc, nameTokens, file, pdfFile, wPx, hPx, photo, boxes } = sheet;
  return {
    id,
    seed,
    ...afterSeed,
    index,
    level,
    template: doc.template,
    layout: doc.layout,
    files: { image: file, pdf: pdfFile },
    imageSize: { width: wPx, height: hPx },
    patientName: doc.nameWritten,
    patientNameTokens: nameTokens,
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
    ...beforePhoto,
    photo,
    // boxes of the three fields on the undistorted page (pixels, A4@200dpi); not valid after photo effects
    fieldBoxesUndistorted: { patientName: boxes.name, patientDob: boxes.dob, examDate: boxes.exam },
  };
}
