import type { Box } from "../../domain/contracts/ocr";
import type { TextComponent } from "./text-detector";

/**
 * A text region as a rectangle in the deskewed frame of the page (u along the text lines, v down the page), in
 * full-resolution pixels. Working in that frame lets rows and columns be compared by plain intervals.
 */
export type TextRegion = { u0: number; u1: number; v0: number; v1: number; score: number; box: Box };
export type PageFrame = { angle: number; cos: number; sin: number };

/** DB's unclip: the detector marks a shrunk core of each word; grow it back by area * ratio / perimeter. */
const UNCLIP_RATIO = 1.6;
const MAX_SKEW_DEG = 15;

/** Orientation of a pixel set from its second moments, with how elongated it is. */
function orientation(c: TextComponent): { angle: number; elongation: number } {
  let mx = 0;
  let my = 0;
  for (let i = 0; i < c.xs.length; i++) {
    mx += c.xs[i]!;
    my += c.ys[i]!;
  }
  mx /= c.xs.length;
  my /= c.ys.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < c.xs.length; i++) {
    const dx = c.xs[i]! - mx;
    const dy = c.ys[i]! - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const common = Math.sqrt(((sxx - syy) / 2) ** 2 + sxy * sxy);
  const major = (sxx + syy) / 2 + common;
  const minor = Math.max((sxx + syy) / 2 - common, 1e-6);
  return { angle, elongation: Math.sqrt(major / minor) };
}

/** The page's skew: the weighted median orientation of long text regions (lines of print and handwriting). */
export function estimateFrame(components: TextComponent[]): PageFrame {
  const votes = components
    .map((c) => ({ ...orientation(c), weight: c.xs.length }))
    .filter((o) => o.elongation > 4 && Math.abs(o.angle) < (MAX_SKEW_DEG * Math.PI) / 180);
  votes.sort((a, b) => a.angle - b.angle);
  const total = votes.reduce((s, v) => s + v.weight, 0);
  let acc = 0;
  let angle = 0;
  for (const v of votes) {
    acc += v.weight;
    if (acc >= total / 2) {
      angle = v.angle;
      break;
    }
  }
  return { angle, cos: Math.cos(angle), sin: Math.sin(angle) };
}

export const toFrame = (f: PageFrame, x: number, y: number) => ({
  u: x * f.cos + y * f.sin,
  v: -x * f.sin + y * f.cos,
});
export const fromFrame = (f: PageFrame, u: number, v: number) => ({
  x: u * f.cos - v * f.sin,
  y: u * f.sin + v * f.cos,
});

export function toRegions(components: TextComponent[], frame: PageFrame, page: number, pixel: number): TextRegion[] {
  const regions: TextRegion[] = [];
  for (const c of components) {
    let u0 = Infinity;
    let u1 = -Infinity;
    let v0 = Infinity;
    let v1 = -Infinity;
    for (let i = 0; i < c.xs.length; i++) {
      const { u, v } = toFrame(frame, c.xs[i]!, c.ys[i]!);
      u0 = Math.min(u0, u);
      u1 = Math.max(u1, u);
      v0 = Math.min(v0, v);
      v1 = Math.max(v1, v);
    }
    const w = u1 - u0 + pixel;
    const h = v1 - v0 + pixel;
    const d = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    u0 -= pixel / 2 + d;
    u1 += pixel / 2 + d;
    v0 -= pixel / 2 + d;
    v1 += pixel / 2 + d;
    const corners = [
      fromFrame(frame, u0, v0),
      fromFrame(frame, u1, v0),
      fromFrame(frame, u0, v1),
      fromFrame(frame, u1, v1),
    ];
    const xs = corners.map((p) => p.x);
    const ys = corners.map((p) => p.y);
    const x = Math.max(0, Math.min(...xs));
    const y = Math.max(0, Math.min(...ys));
    const box = {
      page,
      x: Math.round(x),
      y: Math.round(y),
      width: Math.round(Math.max(...xs) - x),
      height: Math.round(Math.max(...ys) - y),
    };
    regions.push({ u0, u1, v0, v1, score: c.score, box });
  }
  return regions;
}
