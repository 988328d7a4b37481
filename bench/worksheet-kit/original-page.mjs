// The original generator's page: clinic header, demographics box (layout A or B), measurement table, plaque/reflux
// notes, impression and footer. Shared by generate-form-family and generate-handwriting.
import { createCanvas } from "@napi-rs/canvas";
import { drawClinicFormBottom, drawClinicFormTop } from "./clinic-forms.mjs";
import { drawPrintValue, drawHand as fontHand, H, W } from "./draw.mjs";
import { setFont } from "./fonts.mjs";
import { CAROTID_ROWS, TABLE_COLUMNS, VENOUS_ROWS } from "./measurements.mjs";

// `doc.formFont` fixes the form's fonts (one clinic's form); otherwise they are drawn from rng. `doc.blank` prints
// the form with no values. `hand` draws handwritten values; it gets `doc.pen` for the values and dates (the digits
// generate-handwriting writes with real handwriting), null for the rest.
export function renderPage(rng, doc, hand = fontHand) {
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
  // digits: true for the values and dates
  const writeValue = (text, x, y, digits = false) => {
    if (doc.blank) return { x0: x, y0: y, x1: x, y1: y };
    const st = valueStyle();
    return st.kind === "print"
      ? drawPrintValue(ctx, text, x, y, st)
      : hand(ctx, rng, text, x, y, st, digits ? (doc.pen ?? null) : null);
  };

  const { ty: tableTop, boxes } = doc.clinicForm
    ? drawClinicFormTop(ctx, doc.clinicForm, doc.template, writeValue, M, W)
    : originalHeader(ctx, rng, doc, formFont, writeValue, M);

  // --- measurement table
  let ty = tableTop;
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
  const params = TABLE_COLUMNS[doc.template];
  rowsT.forEach((vessel, ri) => {
    const ry = ty + trH * (ri + 1) + 43;
    setFont(ctx, 26, formFont[0]);
    ctx.fillStyle = ink;
    ctx.fillText(vessel, colX[0] + 14, ry);
    params.forEach(([side, param], ci) => {
      const m = doc.measurements.find((mm) => mm.vessel === vessel && mm.side === side && mm.param === param);
      if (!m) {
        if (doc.level === "noisy" && rng.chance(0.5)) writeValue("-", colX[ci + 1] + 90, ry, true);
        return;
      }
      const jx = doc.level === "clean" ? 40 : rng.f(20, 90);
      m.box = writeValue(m.written, colX[ci + 1] + jx, ry + (doc.level === "clean" ? 0 : rng.f(-5, 5)), true);
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
  ctx.fillText(doc.labels.comments ?? "Impression / Comments:", M, ty);
  for (let i = 0; i < 3; i++) ctx.fillRect(M, ty + 70 + i * 66, W - 2 * M, 2);
  writeValue(doc.impression, M + 10, ty + 62);

  // --- small vessel diagram (clutter) and footer; a clinic form with its fields at the foot has them there instead
  if (doc.clinicForm?.layout === "bottom")
    Object.assign(boxes, drawClinicFormBottom(ctx, doc.clinicForm, writeValue, M, W, ty + 290));
  else drawDiagram(ctx, M);
  setFont(ctx, 22, formFont[0]);
  ctx.fillStyle = "#444444";
  ctx.fillText("Sonographer signature: ______________________", M, H - 150);
  ctx.fillText(`Form VL-${doc.template === "carotid" ? "102" : "215"} rev ${doc.formRev}    Page 1 of 1`, M, H - 105);
  return { canvas, boxes };
}

// The original form's clinic header, title and demographics box (layout A or B); returns where the table starts.
function originalHeader(ctx, rng, doc, formFont, writeValue, M) {
  const ink = "#111111";
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
    mrn: [doc.labels.mrn ?? "MRN:", doc.mrn],
    dob: [doc.labels.dob, doc.dob.text],
    exam: [doc.labels.exam, doc.exam.text],
    ref: [doc.labels.ref ?? "Referring Dr:", doc.referrer],
    sono: [doc.labels.sono ?? "Sonographer:", doc.sonographer],
    ind: [doc.labels.ind ?? "Indication:", doc.indication],
    sex: [doc.labels.sex ?? "Sex:", doc.sex],
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
      boxes[key] = writeValue(value, vx, vy, key === "dob" || key === "exam");
      x += cellW;
    }
  });

  return { ty: boxTop + rowH * rows.length + 80, boxes };
}

// A small vessel diagram: clutter near the footer.
function drawDiagram(ctx, M) {
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
}
