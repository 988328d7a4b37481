// Other clinics' header forms (form-family `--clinic-forms`, issue 23): the letterhead and the patient and header
// fields drawn in ways the original form never is - labels over their value in boxes, a label/value grid, two
// columns, a side box, the fields at the page's foot; split or "Last, First" names; dates with month names, US
// month-first dates on a US form (its labels say so), an age beside the date of birth; sex circled on "M / F";
// labels in capitals or title case; letterheads with their own address, phone and dates that are not the patient's.
// Every choice comes from `hrng`, a random stream of its own, so the original sheets are untouched.
import { pad } from "./dates.mjs";
import { setFont } from "./fonts.mjs";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const LETTERHEADS = [
  {
    name: "Mapleton Heart & Vascular Center",
    addr: "1200 Oak Avenue, Suite 210, Springfield, IL 62704",
    phone: "(217) 555-0143  Fax (217) 555-0144",
    us: true,
  },
  {
    name: "Coastal Vein Institute",
    addr: "45 Ocean Drive, Tampa, FL 33602",
    phone: "Tel 813-555-0187",
    us: true,
  },
  {
    name: "Westbrook Imaging Partners",
    addr: "Unit 4, 18 Mill Lane, Westbrook WB3 9QT",
    phone: "Tel 01632 960 441",
    us: false,
  },
  {
    name: "Southern Cross Vascular",
    addr: "Level 5, 77 King William Road, Adelaide SA 5000",
    phone: "Ph 08 7010 5522  ABN 12 345 678 901",
    us: false,
  },
  {
    name: "Harbourview Diagnostic Centre",
    addr: "9 Quay Street, Auckland 1010",
    phone: "Ph 09 555 7712",
    us: false,
  },
];

/** Printed on the form, never the patient's: the form's revision, the day it was printed, the fax line. */
function formDates(hrng, us) {
  const y = hrng.i(2015, 2026);
  const m = hrng.i(1, 12);
  const d = hrng.i(1, 28);
  return hrng.pick([
    `Printed ${y}-${pad(m)}-${pad(d)}`,
    `Rev. ${y}`,
    us
      ? `Form VS-${hrng.i(2, 40)} rev ${pad(m)}/${pad(d)}/${y}`
      : `Form VS-${hrng.i(2, 40)} rev ${pad(d)}/${pad(m)}/${y}`,
    `Effective ${pad(d)}.${pad(m)}.${y}`,
    `Version ${hrng.i(1, 9)} (${MONTHS[m - 1].slice(0, 3)} ${y})`,
  ]);
}

function label(text, caps) {
  if (caps === "upper") return text.toUpperCase();
  if (caps === "title") return text.replace(/\b([a-z])/g, (c) => c.toUpperCase());
  return text;
}

/** A date as this form writes it, and the format's name for the ground truth. */
function writeDate(hrng, { y, m, d }, us) {
  const mon = MONTHS[m - 1];
  const style = us
    ? hrng.pick(["mm/dd/yyyy", "mm/dd/yyyy", "Month d, yyyy", "Mon d, yyyy"])
    : hrng.pick(["dd/mm/yyyy", "d/m/yyyy", "dd.mm.yyyy", "dd Mon yyyy", "d Month yyyy", "dd-MON-yyyy"]);
  const text = {
    "mm/dd/yyyy": `${pad(m)}/${pad(d)}/${y}`,
    "Month d, yyyy": `${mon} ${d}, ${y}`,
    "Mon d, yyyy": `${mon.slice(0, 3)} ${d}, ${y}`,
    "dd/mm/yyyy": `${pad(d)}/${pad(m)}/${y}`,
    "d/m/yyyy": `${d}/${m}/${y}`,
    "dd.mm.yyyy": `${pad(d)}.${pad(m)}.${y}`,
    "dd Mon yyyy": `${pad(d)} ${mon.slice(0, 3)} ${y}`,
    "d Month yyyy": `${d} ${mon} ${y}`,
    "dd-MON-yyyy": `${pad(d)}-${mon.slice(0, 3).toUpperCase()}-${y}`,
  }[style];
  return { text, format: style };
}

/**
 * The form of one sheet: which letterhead, layout, wordings and date styles, and the values as written on it.
 * `sheet` holds the patient (first, middle, last), ISO dates' parts, and the other header values.
 */
export function clinicForm(hrng, sheet) {
  const head = hrng.pick(LETTERHEADS);
  const us = head.us;
  const caps = hrng.pick(["upper", "title", "as-is"]);
  const layout = hrng.pick(["stacked", "grid", "twocol", "side", "bottom"]);
  const font = hrng.pick([
    ["Sans", "SansBold"],
    ["Lib", "LibBold"],
    ["Serif", "SerifBold"],
    ["LibSerif", "LibSerifBold"],
    ["Mono", "Mono"],
  ]);
  const { first, middle, last } = sheet;
  const nameStyle = hrng.pick(["single", "lastFirst", "split"]);
  const fields = [];
  if (nameStyle === "split") {
    const [sl, gl] = hrng.pick([
      ["Surname", "Given names"],
      ["Last name", "First name"],
      ["Family name", "Given name"],
      ["Last", "First"],
    ]);
    const upper = hrng.chance(0.5);
    fields.push({ key: "surname", label: sl, value: upper ? last.toUpperCase() : last });
    fields.push({ key: "given", label: gl, value: `${first}${middle}` });
  } else if (nameStyle === "lastFirst") {
    fields.push({
      key: "name",
      label: hrng.pick(["Name (Last, First)", "Patient (Surname, Given)", "Patient name (last, first)"]),
      value: `${last.toUpperCase()}, ${first}${middle}`,
    });
  } else {
    fields.push({
      key: "name",
      label: hrng.pick(["Patient", "Pt Name", "Patient name", "Name", "Client name"]),
      value: hrng.chance(0.5) ? `${first}${middle} ${last}` : `${first}${middle} ${last}`.toUpperCase(),
    });
  }
  const dob = writeDate(hrng, sheet.dobD, us);
  const exam = writeDate(hrng, sheet.examD, us);
  const numeric = (f) => /^(mm|dd|d)[/.]/.test(f);
  const hint = numeric(dob.format) && (us || hrng.chance(0.4)) ? (us ? " (MM/DD/YYYY)" : " (DD/MM/YYYY)") : "";
  const withAge = hrng.chance(0.3);
  const age =
    sheet.examD.y - sheet.dobD.y - (sheet.examD.m * 100 + sheet.examD.d < sheet.dobD.m * 100 + sheet.dobD.d ? 1 : 0);
  const dobLabel = withAge
    ? `${hrng.pick(["DOB/Age", "D.O.B. / Age", "Date of birth / Age"])}${hint}`
    : `${hrng.pick(["Born", "Date of birth", "DOB", "Birth date", "D.O.B."])}${hint}`;
  fields.push({
    key: "dob",
    label: dobLabel,
    value: withAge ? `${dob.text} ${hrng.pick([`(${age}y)`, `(${age} yrs)`, `Age ${age}`])}` : dob.text,
  });
  // A US form says month-first on its exam date's label too, when its numbers could be read either way.
  const examHint = us && numeric(exam.format) && !hint ? " (MM/DD/YYYY)" : "";
  fields.push({
    key: "exam",
    label: `${hrng.pick(["Date of service", "Exam date", "Scan date", "Study date", "Date of exam", "Visit date"])}${examHint}`,
    value: exam.text,
  });
  const sexStyle = hrng.pick(["letter", "word", "circled"]);
  fields.push({
    key: "sex",
    label: hrng.pick(["Sex", "Gender"]),
    value: sexStyle === "word" ? (sheet.sex === "M" ? "Male" : "Female") : sheet.sex,
    circled: sexStyle === "circled",
  });
  fields.push({
    key: "mrn",
    label: hrng.pick(["MRN", "UR No.", "Hospital No.", "Patient ID", "Medical Record No.", "Chart No."]),
    value: sheet.mrn,
  });
  fields.push({
    key: "ref",
    label: hrng.pick(["Referring physician", "Ref. Dr", "Referred by", "Requesting doctor", "Ordering provider"]),
    value: sheet.referrer,
  });
  fields.push({
    key: "sono",
    label: hrng.pick(["Sonographer", "Tech", "Performed by", "Technologist", "Scanned by"]),
    value: sheet.sonographer,
  });
  fields.push({
    key: "ind",
    label: hrng.pick(["Indication", "Reason for exam", "Clinical history", "Clinical indication"]),
    value: sheet.indication,
  });
  const colon = layout === "stacked" || layout === "grid" ? hrng.chance(0.3) : hrng.chance(0.85);
  for (const f of fields) f.label = `${label(f.label, caps)}${colon ? ":" : ""}`;
  // Two-column layouts shuffle the fields' order after the name; one-field-a-line layouts keep it.
  const [names, rest] = [fields.filter((f) => ["name", "surname", "given"].includes(f.key)), fields];
  const order = [...names, ...hrng.shuffle(rest.filter((f) => !names.includes(f)))];
  return {
    head,
    us,
    caps,
    layout,
    font,
    nameStyle,
    sexStyle,
    colon,
    withAge,
    dateFormats: { patientDob: dob.format, examDate: exam.format },
    printed: formDates(hrng, us),
    fields: order,
  };
}

/** What the ground truth says of the form (its `form` key). */
export function clinicFormTruth(form) {
  const { head, fields, ...rest } = form;
  return { ...rest, letterhead: head.name, labels: Object.fromEntries(fields.map((f) => [f.key, f.label])) };
}

const ink = "#111111";

/** The clinic's name, address and phone across the page, the form's own date at the right. */
function letterhead(ctx, form, x, y, width) {
  const [regular, bold] = form.font;
  ctx.fillStyle = "#1d4f91";
  setFont(ctx, 42, bold);
  ctx.fillText(form.head.name, x, y);
  ctx.fillStyle = "#333333";
  setFont(ctx, 22, regular);
  ctx.fillText(form.head.addr, x, y + 40);
  ctx.fillText(form.head.phone, x, y + 72);
  const pw = ctx.measureText(form.printed).width;
  ctx.fillText(form.printed, x + width - pw, y + 72);
}

function title(ctx, form, template, y, M, W) {
  ctx.fillStyle = ink;
  ctx.fillRect(M, y - 60, W - 2 * M, 3);
  setFont(ctx, 34, form.font[1]);
  const t = template === "carotid" ? "Carotid Duplex Scan" : "Venous Duplex - Lower Limbs";
  const text = form.caps === "upper" ? t.toUpperCase() : t;
  ctx.fillText(text, (W - ctx.measureText(text).width) / 2, y);
}

/** Sex on "M / F" with the patient's letter circled by pen. */
function circledSex(ctx, form, value, x, y) {
  setFont(ctx, 28, form.font[0]);
  ctx.fillStyle = ink;
  const mw = ctx.measureText("M").width;
  const sep = ctx.measureText("M  /  ").width;
  ctx.fillText("M  /  F", x, y);
  const cx = value === "M" ? x + mw / 2 : x + sep + ctx.measureText("F").width / 2;
  ctx.strokeStyle = "#1b2a8c";
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.ellipse(cx, y - 10, 24, 22, 0, 0, Math.PI * 2);
  ctx.stroke();
  ctx.strokeStyle = ink;
  ctx.lineWidth = 2;
  return { x0: x, y0: y - 30, x1: x + ctx.measureText("M  /  F").width, y1: y + 8 };
}

/** One field: its label, and its value right of the label or under it. */
function field(ctx, form, f, x, y, width, writeValue, below) {
  setFont(ctx, below ? 22 : 27, form.font[1]);
  ctx.fillStyle = ink;
  ctx.fillText(f.label, x, y);
  const lw = ctx.measureText(f.label).width + 16;
  const vx = below ? x + 6 : x + lw;
  const vy = below ? y + 44 : y;
  if (!below) ctx.fillRect(x + lw - 6, y + 8, Math.max(40, width - lw - 10), 2);
  if (f.circled) return circledSex(ctx, form, f.value, vx, vy);
  return writeValue(f.value, vx, vy, f.key === "dob" || f.key === "exam");
}

/** Two fields a row when both fit in half the width (label unless `labelPx` is null, gap, value), else one. */
function rows(ctx, form, fields, colW, labelPx) {
  const fits = (f) => {
    setFont(ctx, labelPx ?? 20, form.font[1]);
    const lw = labelPx === null ? 0 : ctx.measureText(f.label).width;
    setFont(ctx, 30, form.valueFont);
    return lw + ctx.measureText(f.value).width + 60 < colW;
  };
  const out = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    const g = fields[i + 1];
    if (g && fits(f) && fits(g)) {
      out.push([f, g]);
      i++;
    } else out.push([f]);
  }
  return out;
}

/**
 * Draws the letterhead, the title and the fields placed at the top (every layout but "bottom"); returns where the
 * table may start and the fields' boxes. `bottom` draws the "bottom" layout's fields at `y`.
 */
export function drawClinicFormTop(ctx, form, template, writeValue, M, W) {
  const boxes = {};
  const put = (f, b) => {
    boxes[f.key] = b;
  };
  if (form.layout === "side") {
    // The clinic's name across the top, its address and dates on the left, the fields in a box on the right.
    const bx = 700;
    ctx.fillStyle = "#1d4f91";
    setFont(ctx, 42, form.font[1]);
    ctx.fillText(form.head.name, M, 140);
    ctx.fillStyle = "#333333";
    setFont(ctx, 22, form.font[0]);
    const words = `${form.head.addr}, ${form.head.phone}`.split(" ");
    let line = "";
    let ly = 240;
    for (const w of words) {
      if (ctx.measureText(`${line} ${w}`).width > bx - M - 40 && line) {
        ctx.fillText(line, M, ly);
        ly += 34;
        line = w;
      } else line = line ? `${line} ${w}` : w;
    }
    ctx.fillText(line, M, ly);
    ctx.fillText(form.printed, M, ly + 50);
    ctx.strokeStyle = ink;
    ctx.lineWidth = 2;
    const rowH = 58;
    const top = 190;
    ctx.strokeRect(bx, top, W - M - bx, rowH * form.fields.length + 30);
    form.fields.forEach((f, i) => {
      put(f, field(ctx, form, f, bx + 16, top + 50 + rowH * i, W - M - bx - 30, writeValue, false));
    });
    const y = top + rowH * form.fields.length + 30;
    title(ctx, form, template, y + 80, M, W);
    return { ty: y + 130, boxes };
  }
  letterhead(ctx, form, M, 140, W - 2 * M);
  title(ctx, form, template, 300, M, W);
  if (form.layout === "bottom") return { ty: 360, boxes };
  let y = 350;
  const colW = (W - 2 * M) / 2;
  if (form.layout === "stacked") {
    // Boxes, the label small in each box's corner and the value under it.
    const boxH = 96;
    ctx.strokeStyle = ink;
    ctx.lineWidth = 2;
    for (const row of rows(ctx, form, form.fields, colW, 30)) {
      row.forEach((f, i) => {
        ctx.strokeRect(M + i * colW, y, row.length === 1 ? 2 * colW : colW, boxH);
        put(f, field(ctx, form, f, M + i * colW + 12, y + 28, colW - 20, writeValue, true));
      });
      y += boxH;
    }
    return { ty: y + 70, boxes };
  }
  if (form.layout === "grid") {
    // A header table: label cell (shaded), value cell, twice a row.
    const rowH = 64;
    setFont(ctx, 24, form.font[1]);
    const labelW = Math.max(...form.fields.map((f) => ctx.measureText(f.label).width)) + 28;
    for (const row of rows(ctx, form, form.fields, colW - labelW, null)) {
      row.forEach((f, i) => {
        const x = M + i * colW;
        const cellW = row.length === 1 ? 2 * colW : colW;
        ctx.fillStyle = "#ececec";
        ctx.fillRect(x + 1, y + 1, labelW - 2, rowH - 2);
        ctx.strokeStyle = ink;
        ctx.lineWidth = 2;
        ctx.strokeRect(x, y, labelW, rowH);
        ctx.strokeRect(x + labelW, y, cellW - labelW, rowH);
        setFont(ctx, 24, form.font[1]);
        ctx.fillStyle = ink;
        ctx.fillText(f.label, x + 10, y + 42);
        put(
          f,
          f.circled
            ? circledSex(ctx, form, f.value, x + labelW + 14, y + 44)
            : writeValue(f.value, x + labelW + 14, y + 44, f.key === "dob" || f.key === "exam"),
        );
      });
      y += rowH;
    }
    return { ty: y + 70, boxes };
  }
  // "twocol": label, then the value on its write-on line, two columns.
  for (const row of rows(ctx, form, form.fields, colW - 30, 27)) {
    row.forEach((f, i) => {
      const w = row.length === 1 ? 2 * colW - 30 : colW - 30;
      put(f, field(ctx, form, f, M + i * colW + (i ? 20 : 0), y + 40, w, writeValue, false));
    });
    y += 70;
  }
  return { ty: y + 60, boxes };
}

/** The "bottom" layout: the fields in two columns at the page's foot (the page draws no vessel diagram then). */
export function drawClinicFormBottom(ctx, form, writeValue, M, W, y) {
  const boxes = {};
  const colW = (W - 2 * M) / 2;
  setFont(ctx, 26, form.font[1]);
  ctx.fillStyle = ink;
  ctx.fillText(form.caps === "upper" ? "PATIENT DETAILS" : "Patient details", M, y);
  y += 60;
  for (const row of rows(ctx, form, form.fields, colW - 10, 27)) {
    row.forEach((f, i) => {
      const w = row.length === 1 ? 2 * colW - 10 : colW - 10;
      boxes[f.key] = field(ctx, form, f, M + i * (colW + 20), y, w, writeValue, false);
    });
    y += 62;
  }
  return boxes;
}
