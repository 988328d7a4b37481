// Plaque check boxes on carotid sheets (generate-varied --plaque, issue 31 item 10): a section per side, headed by
// the side and vessel, with echogenicity and surface boxes worded, boxed and marked the ways clinics do. Everything
// is drawn from the caller's own random stream, so sheets without --plaque stay byte-identical.
import { setFont } from "./fonts.mjs";

// How forms word each character; the key is the product's finding code (domain/vocabulary/study-terms.ts).
export const PLAQUE_WORDINGS = {
  echolucent: ["Echolucent", "Hypoechoic", "Echolucent", "Anechoic"],
  echogenic: ["Echogenic", "Hyperechoic", "Echogenic"],
  heterogeneous: ["Heterogeneous", "Mixed", "Heterogeneous"],
  calcified: ["Calcified", "Calcific", "Calcified"],
  smooth_surface: ["Smooth"],
  irregular_surface: ["Irregular"],
  ulcerated: ["Ulcerated", "Ulceration", "Ulcerated"],
};
const ECHO = ["echolucent", "echogenic", "heterogeneous", "calcified"];
const SURFACE = ["smooth_surface", "irregular_surface", "ulcerated"];
// What a sonographer ticks together (never contradictions such as echolucent and calcified).
const ECHO_TICKS = [
  [],
  ["echolucent"],
  ["echogenic"],
  ["heterogeneous"],
  ["calcified"],
  ["heterogeneous", "calcified"],
];
const SURFACE_TICKS = [
  [],
  ["smooth_surface"],
  ["irregular_surface"],
  ["ulcerated"],
  ["irregular_surface", "ulcerated"],
];
const VESSELS = [
  ["ICA", "ICA"],
  ["ICA", "ICA"],
  ["ICA", "ICA"],
  ["Bulb", "BULB"],
  ["CCA", "CCA"],
];
const SIDE_WORDS = [
  ["Right", "Left"],
  ["Rt", "Lt"],
  ["R", "L"],
  ["RIGHT", "LEFT"],
];

/** What the sheet's plaque section says and how it looks (no drawing). */
export function plaqueContent(prng) {
  const wording = Object.fromEntries(Object.entries(PLAQUE_WORDINGS).map(([k, v]) => [k, prng.pick(v)]));
  const sideWords = prng.pick(SIDE_WORDS);
  const sections = ["right", "left"].flatMap((side, si) => {
    if (prng.chance(0.15)) return [];
    const [vesselWord, site] = prng.pick(VESSELS);
    const ticked = [...prng.pick(ECHO_TICKS), ...prng.pick(SURFACE_TICKS)];
    return [{ side, site, heading: headingText(prng, sideWords[si], vesselWord), ticked }];
  });
  return {
    wording,
    sections,
    boxStyle: prng.pick(["square", "square", "circle", "glyph", "brackets"]),
    mark: prng.pick(["tick", "tick", "cross", "filled", "circled"]),
    // "inline": echogenicity right of the heading, surface on the line below; "stacked": heading on its own line.
    arrangement: prng.pick(["inline", "inline", "stacked"]),
    surfaceLabel: prng.chance(0.5) ? prng.pick(["Surface:", "Surface"]) : null,
    title: prng.pick(["Plaque characterization", "Plaque", "PLAQUE MORPHOLOGY", null]),
  };
}

function headingText(prng, sideWord, vessel) {
  const style = prng.i(0, 3);
  if (style === 0) return `${sideWord} ${vessel} plaque:`;
  if (style === 1) return `${sideWord} ${vessel} Plaque`;
  if (style === 2) return `${sideWord} ${vessel}:`;
  return `${sideWord.toUpperCase()} ${vessel.toUpperCase()} PLAQUE:`;
}

/** The ground truth: one observation per ticked character, in the product's vocabulary. */
export const plaqueTruth = (plaque) =>
  plaque.sections.flatMap((s) => s.ticked.map((finding) => ({ site: s.site, side: s.side, finding })));

/** Draws the section from `startY` (a text baseline) down; returns the baseline after it. */
export function drawPlaque(ctx, prng, plaque, { M, ink, markInk, formFont, formBold, level }, startY) {
  let ty = startY;
  if (plaque.title) {
    setFont(ctx, 28, formBold);
    ctx.fillStyle = ink;
    ctx.fillText(plaque.title, M, ty);
    ty += 56;
  }
  const size = 24;
  const box = 24;
  const jitter = (a) => (level === "clean" ? 0 : prng.f(-a, a));
  const drawRow = (codes, x0, y, ticked) => {
    let x = x0;
    for (const code of codes) {
      const label = plaque.wording[code];
      const marked = ticked.includes(code);
      const b = { x, y: y - box + 2, w: box, h: box };
      drawBox(ctx, plaque.boxStyle, b, ink, formFont);
      setFont(ctx, size, formFont);
      ctx.fillStyle = ink;
      const lx = x + box + 12;
      ctx.fillText(label, lx, y);
      const lw = ctx.measureText(label).width;
      if (marked) drawMark(ctx, prng, plaque.mark, b, { x: lx, y: y - size, w: lw, h: size * 1.3 }, markInk, jitter);
      x = lx + lw + 48;
    }
  };
  for (const s of plaque.sections) {
    setFont(ctx, size, formBold);
    ctx.fillStyle = ink;
    ctx.fillText(s.heading, M, ty);
    const headW = ctx.measureText(s.heading).width;
    let x0 = M + Math.max(300, headW + 40);
    if (plaque.arrangement === "stacked") {
      ty += 48;
      x0 = M + 40;
    }
    drawRow(ECHO, x0, ty, s.ticked);
    ty += 48;
    let sx = x0;
    if (plaque.surfaceLabel) {
      setFont(ctx, size, formFont);
      ctx.fillStyle = ink;
      ctx.fillText(plaque.surfaceLabel, x0, ty);
      sx = x0 + ctx.measureText(plaque.surfaceLabel).width + 24;
    }
    drawRow(SURFACE, sx, ty, s.ticked);
    ty += 62;
  }
  return ty + 20;
}

function drawBox(ctx, style, b, ink, formFont) {
  ctx.strokeStyle = ink;
  ctx.fillStyle = ink;
  ctx.lineWidth = 2;
  if (style === "square") ctx.strokeRect(b.x, b.y, b.w, b.h);
  else if (style === "circle") {
    ctx.beginPath();
    ctx.arc(b.x + b.w / 2, b.y + b.h / 2, b.w / 2, 0, 2 * Math.PI);
    ctx.stroke();
  } else if (style === "glyph") {
    setFont(ctx, b.h * 1.25, "Sans");
    ctx.fillText("\u2610", b.x - 1, b.y + b.h);
  } else {
    setFont(ctx, b.h * 1.1, formFont);
    ctx.fillText("[", b.x - 2, b.y + b.h - 1);
    ctx.fillText("]", b.x + b.w - 6, b.y + b.h - 1);
  }
}

function drawMark(ctx, prng, mark, b, label, markInk, jitter) {
  ctx.strokeStyle = markInk;
  ctx.fillStyle = markInk;
  ctx.lineWidth = 3 + prng.f(0, 1.5);
  ctx.lineCap = "round";
  const { x, y, w, h } = b;
  ctx.beginPath();
  if (mark === "tick") {
    ctx.moveTo(x + 3 + jitter(2), y + h * 0.55 + jitter(2));
    ctx.lineTo(x + w * 0.4 + jitter(2), y + h - 2 + jitter(2));
    ctx.lineTo(x + w + 4 + jitter(3), y - 6 + jitter(3));
    ctx.stroke();
  } else if (mark === "cross") {
    ctx.moveTo(x + 3 + jitter(2), y + 3 + jitter(2));
    ctx.lineTo(x + w - 3 + jitter(2), y + h - 3 + jitter(2));
    ctx.moveTo(x + w - 3 + jitter(2), y + 3 + jitter(2));
    ctx.lineTo(x + 3 + jitter(2), y + h - 3 + jitter(2));
    ctx.stroke();
  } else if (mark === "filled") {
    ctx.fillRect(x + 4 + jitter(1), y + 4 + jitter(1), w - 8, h - 8);
  } else {
    // A ring around the word, the box left empty.
    ctx.ellipse(
      label.x + label.w / 2 + jitter(3),
      label.y + label.h / 2 - 2 + jitter(2),
      label.w / 2 + 6,
      label.h / 2 + 8,
      jitter(0.05),
      0,
      2 * Math.PI,
    );
    ctx.stroke();
  }
  ctx.lineCap = "butt";
  ctx.lineWidth = 2;
}
