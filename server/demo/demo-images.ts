import { LEGEND_CANVAS } from "../../domain/contracts/templates";
import { loadSharp } from "../platform/sharp";

// Pictures for the demo clinic, drawn here so the demo needs no binary assets beyond the worksheet fixtures.

/** A small deterministic generator: the same name always draws the same signature. */
function seededRandom(text: string): () => number {
  let state = 2166136261;
  for (const ch of text) state = Math.imul(state ^ ch.charCodeAt(0), 16777619) >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

/**
 * A handwriting-like stroke: a trochoid (a point on a rolling wheel) makes the loops of joined-up letters,
 * with per-letter height and slant drawn from the name, then a flourish underneath and the printed name.
 */
export async function signaturePng(name: string): Promise<Buffer> {
  const width = 480;
  const height = 170;
  const random = seededRandom(name);
  const letters = Math.max(6, Math.min(14, name.replace(/[^A-Za-z]/g, "").length));
  const points: string[] = [];
  const steps = letters * 24;
  const slant = 0.25 + random() * 0.2;
  const heights = Array.from({ length: letters }, () => 18 + random() * 26);
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const angle = t * letters * Math.PI * 2;
    const letter = Math.min(letters - 1, Math.floor(t * letters));
    const radius = heights[letter]!;
    const y = 92 - radius * Math.sin(angle) * 0.9 - 6 * Math.sin(t * Math.PI);
    const x = 30 + t * (width - 90) + radius * 0.55 * Math.cos(angle) + slant * (92 - y);
    points.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  }
  const flourishEnd = width - 40 - random() * 30;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="${width}" height="${height}" fill="#ffffff"/>
  <polyline points="${points.join(" ")}" fill="none" stroke="#1b2a4a" stroke-width="2.6"
            stroke-linecap="round" stroke-linejoin="round"/>
  <path d="M40 126 C 140 ${112 + random() * 10}, 260 ${132 + random() * 8}, ${flourishEnd.toFixed(0)} 118"
        fill="none" stroke="#1b2a4a" stroke-width="1.8" stroke-linecap="round"/>
  <text x="40" y="156" font-family="DejaVu Serif, Liberation Serif, serif" font-style="italic" font-size="17"
        fill="#334155">${escapeXml(name)}</text>
</svg>`;
  return (await loadSharp())(Buffer.from(svg)).png().toBuffer();
}

/** A clinic logo: a pulse line in a circle and the clinic's name. */
export async function logoPng(name: string, color: string): Promise<Buffer> {
  const [first = name, ...rest] = name.split(" ");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="120">
  <rect width="420" height="120" fill="#ffffff"/>
  <circle cx="60" cy="60" r="50" fill="${color}"/>
  <path d="M20 62 H42 L52 34 L64 90 L74 48 L82 62 H100" stroke="#fff" stroke-width="6" fill="none"
        stroke-linejoin="round" stroke-linecap="round"/>
  <text x="126" y="56" font-family="Liberation Sans, Arial" font-size="34" font-weight="bold" fill="${color}">${escapeXml(first)}</text>
  <text x="126" y="92" font-family="Liberation Sans, Arial" font-size="22" fill="#475569">${escapeXml(rest.join(" "))}</text>
</svg>`;
  return (await loadSharp())(Buffer.from(svg)).png().toBuffer();
}

/** The legend's drawn patterns, as a sonographer would draw them on the 400x300 canvas. */
export type LegendDrawing = "red-x" | "reflux-arrow" | "plaque-hatch" | "stent-lines" | "dvt-fill";

const drawings: Record<LegendDrawing, string> = {
  "red-x": `<path d="M120 70 L280 230 M280 70 L120 230" stroke="#d00000" stroke-width="16" stroke-linecap="round"/>`,
  "reflux-arrow": `<path d="M200 60 V230" stroke="#1d4ed8" stroke-width="12" stroke-linecap="round"/>
    <path d="M150 180 L200 240 L250 180" stroke="#1d4ed8" stroke-width="12" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
  "plaque-hatch": `<rect x="90" y="110" width="220" height="80" rx="30" fill="none" stroke="#111" stroke-width="6"/>
    <path d="M110 190 L150 110 M150 190 L190 110 M190 190 L230 110 M230 190 L270 110" stroke="#111" stroke-width="5"/>`,
  "stent-lines": `<path d="M70 120 H330 M70 180 H330" stroke="#111" stroke-width="6"/>
    <path d="M90 120 L120 180 L150 120 L180 180 L210 120 L240 180 L270 120 L300 180" stroke="#555" stroke-width="4" fill="none"/>`,
  "dvt-fill": `<ellipse cx="200" cy="150" rx="140" ry="60" fill="none" stroke="#111" stroke-width="6"/>
    <ellipse cx="200" cy="150" rx="90" ry="36" fill="#7f1d1d"/>`,
};

/** The drawing as the PNG data URL the legend form sends from its canvas. */
export async function legendDrawingDataUrl(kind: LegendDrawing): Promise<string> {
  const { width, height } = LEGEND_CANVAS;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="${width}" height="${height}" fill="#ffffff"/>${drawings[kind]}</svg>`;
  const png = await (await loadSharp())(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}
