import { loadSharp } from "../platform/sharp";

type Point = { x: number; y: number };
/** Corners of the sheet: top left, top right, bottom right, bottom left. */
export type Quad = [Point, Point, Point, Point];

/** The sheet is found on a small copy of the photo: its outline, not its text, is what is looked for. */
const SEARCH_SIDE = 400;
/** A sheet covers a good part of the photo but leaves desk around it; otherwise there is nothing to find. */
const MIN_PAGE_SHARE = 0.25;
const MAX_PAGE_SHARE = 0.97;
/** The bright region must fill its quadrilateral: a sheet is one, a lamp's reflection or a lit desk is not. */
const MIN_FILL = 0.93;
/**
 * Opposite sides differing by less than this are a sheet photographed square on (at most rotated, which the page
 * frame of the text already handles): resampling it would only blur the handwriting.
 */
const MIN_KEYSTONE = 0.06;
/** Margin kept around the corners found (as a share of the sheet's size): corners on the small copy are coarse. */
const MARGIN = 0.01;
/** Grey levels between the desk and the paper below which no outline is looked for. */
const MIN_CONTRAST = 40;
/** A sheet seen at a steeper angle than this is more likely a wrong outline than a photo anyone would take. */
const MAX_KEYSTONE = 0.35;
/** Height over width of a sheet (A4 1.41, US letter 1.29), with room for the outline's error. */
const MIN_ASPECT = 1.15;
const MAX_ASPECT = 1.6;

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * A phone held at an angle sees the sheet as a trapezoid: its far edge shorter, its handwriting squeezed. When
 * the sheet stands out from the desk around it and is seen at an angle, the page is warped back to a rectangle
 * (the sheet alone, desk cropped away); otherwise the image is returned as it is.
 */
export async function flattenPage(png: Buffer): Promise<Buffer> {
  const quad = await findSheet(png);
  if (!quad || keystone(quad) < MIN_KEYSTONE) return png;
  return warpToRectangle(png, quad);
}

/** The sheet's corners in the image's pixels, or null when no clear sheet on a darker background is seen. */
export async function findSheet(png: Buffer): Promise<Quad | null> {
  const { data, info } = await (await loadSharp())(png)
    .greyscale()
    .resize({ width: SEARCH_SIDE, height: SEARCH_SIDE, fit: "inside" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  const threshold = paperThreshold(data, w, h);
  if (threshold === null) return null;
  const bright = brightMask(data, threshold);
  const region = largestRegion(bright, w, h);
  const share = region.length / (w * h);
  if (share < MIN_PAGE_SHARE || share > MAX_PAGE_SHARE) return null;
  const rough = extremeCorners(region, w);
  if (polygonArea(rough) <= 0 || region.length / polygonArea(rough) < MIN_FILL) return null;
  const corners = fittedCorners(region, w, h, rough);
  if (!corners) return null;
  // A corner on the photo's edge is where the frame cut the sheet off, not the sheet's own corner.
  const edge = 0.015 * Math.max(w, h);
  const onEdge = (p: Point) => p.x < edge || p.y < edge || p.x > w - edge || p.y > h - edge;
  if (corners.some(onEdge) || keystone(corners) > MAX_KEYSTONE) return null;
  const aspect =
    Math.max(dist(corners[0], corners[3]), dist(corners[1], corners[2])) /
    Math.max(dist(corners[0], corners[1]), dist(corners[3], corners[2]));
  if ((aspect < MIN_ASPECT || aspect > MAX_ASPECT) && (1 / aspect < MIN_ASPECT || 1 / aspect > MAX_ASPECT)) return null;
  const scale = (await (await loadSharp())(png).metadata()).width! / w;
  return corners.map((p) => ({ x: p.x * scale, y: p.y * scale })) as Quad;
}

/** How much the far edge of the sheet is shorter than the near one (0 for a rectangle, seen square on). */
export function keystone(q: Quad): number {
  const ratio = (a: number, b: number) => 1 - Math.min(a, b) / Math.max(a, b);
  return Math.max(ratio(dist(q[0], q[1]), dist(q[3], q[2])), ratio(dist(q[0], q[3]), dist(q[1], q[2])));
}

/**
 * The level between desk and paper: the desk shows along the photo's border, the paper is the brightest part. A
 * point a third of the way up from the desk keeps shadowed paper (a phone's shadow across the sheet) as paper.
 */
function paperThreshold(grey: Uint8Array, w: number, h: number): number | null {
  const border: number[] = [];
  for (let x = 0; x < w; x++) border.push(grey[x]!, grey[(h - 1) * w + x]!);
  for (let y = 0; y < h; y++) border.push(grey[y * w]!, grey[y * w + w - 1]!);
  border.sort((a, b) => a - b);
  const desk = border[Math.floor(border.length / 2)]!;
  const sorted = Uint8Array.from(grey).sort();
  const paper = sorted[Math.floor(sorted.length * 0.9)]!;
  // Without a clearly darker desk there is no outline to find (a scan, or a sheet filling the photo).
  if (paper - desk < MIN_CONTRAST) return null;
  return desk + (paper - desk) / 3;
}

function brightMask(grey: Uint8Array, threshold: number): Uint8Array {
  const mask = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) mask[i] = grey[i]! > threshold ? 1 : 0;
  return mask;
}

/** Pixel indices of the largest 4-connected bright region (the sheet, with its ink as holes in it). */
function largestRegion(mask: Uint8Array, w: number, h: number): number[] {
  const seen = new Uint8Array(mask.length);
  let largest: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    const region: number[] = [];
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const i = stack.pop()!;
      region.push(i);
      const x = i % w;
      for (const n of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i >= w ? i - w : -1, i + w < w * h ? i + w : -1]) {
        if (n >= 0 && mask[n] && !seen[n]) {
          seen[n] = 1;
          stack.push(n);
        }
      }
    }
    if (region.length > largest.length) largest = region;
  }
  return largest;
}

/** The region's corners as its extreme points along the two diagonals (sheets turned by less than 45 degrees). */
function extremeCorners(region: number[], w: number): Quad {
  const pick = (score: (x: number, y: number) => number) => {
    let best = { x: 0, y: 0, s: Number.NEGATIVE_INFINITY };
    for (const i of region) {
      const x = i % w;
      const y = (i - x) / w;
      const s = score(x, y);
      if (s > best.s) best = { x, y, s };
    }
    return { x: best.x + 0.5, y: best.y + 0.5 };
  };
  return [pick((x, y) => -x - y), pick((x, y) => x - y), pick((x, y) => x + y), pick((x, y) => y - x)];
}

type Line = { a: number; b: number; c: number };

/**
 * The corners as the crossings of lines fitted to the middle of each edge of the region: a corner the extreme points
 * put wrong (cut by a shadow or by the frame) does not move them. Null when an edge is not straight (no sheet).
 */
function fittedCorners(region: number[], w: number, h: number, rough: Quad): Quad | null {
  const top = new Array<number>(w).fill(h);
  const bottom = new Array<number>(w).fill(-1);
  const left = new Array<number>(h).fill(w);
  const right = new Array<number>(h).fill(-1);
  for (const i of region) {
    const x = i % w;
    const y = (i - x) / w;
    top[x] = Math.min(top[x]!, y);
    bottom[x] = Math.max(bottom[x]!, y);
    left[y] = Math.min(left[y]!, x);
    right[y] = Math.max(right[y]!, x);
  }
  const [tl, tr, br, bl] = rough;
  const middle = (from: number, to: number) => {
    const lo = Math.ceil(Math.min(from, to) + EDGE_TRIM * Math.abs(to - from));
    const hi = Math.floor(Math.max(from, to) - EDGE_TRIM * Math.abs(to - from));
    return Array.from({ length: Math.max(0, hi - lo + 1) }, (_, k) => lo + k);
  };
  const lines = [
    fitLine(middle(tl.x, tr.x).map((x) => ({ x, y: top[x]! }))),
    fitLine(middle(tr.y, br.y).map((y) => ({ x: right[y]!, y }))),
    fitLine(middle(bl.x, br.x).map((x) => ({ x, y: bottom[x]! }))),
    fitLine(middle(tl.y, bl.y).map((y) => ({ x: left[y]!, y }))),
  ];
  if (lines.some((l) => l === null)) return null;
  const [t, r, b, l] = lines as [Line, Line, Line, Line];
  const corners = [cross(l, t), cross(t, r), cross(r, b), cross(b, l)];
  return corners.some((p) => p === null) ? null : (corners as Quad);
}

/** Share of each edge left out at both ends when fitting its line: corners are where shadows and cuts are. */
const EDGE_TRIM = 0.15;
/** Pixels (on the small copy) within which an edge's points must lie from its line for the edge to be straight. */
const MAX_EDGE_RESIDUAL = 1.5;

/** Total least squares line through points, as a x + b y = c with (a, b) a unit normal; null if not straight. */
function fitLine(points: Point[]): Line | null {
  if (points.length < 10) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const my = points.reduce((s, p) => s + p.y, 0) / points.length;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const p of points) {
    sxx += (p.x - mx) ** 2;
    sxy += (p.x - mx) * (p.y - my);
    syy += (p.y - my) ** 2;
  }
  // The normal is the direction of least spread.
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy) + Math.PI / 2;
  const line = { a: Math.cos(angle), b: Math.sin(angle), c: Math.cos(angle) * mx + Math.sin(angle) * my };
  const residuals = points.map((p) => Math.abs(line.a * p.x + line.b * p.y - line.c)).sort((u, v) => u - v);
  return residuals[Math.floor(residuals.length / 2)]! <= MAX_EDGE_RESIDUAL ? line : null;
}

function cross(p: Line, q: Line): Point | null {
  const det = p.a * q.b - q.a * p.b;
  if (Math.abs(det) < 1e-9) return null;
  return { x: (p.c * q.b - q.c * p.b) / det, y: (p.a * q.c - q.a * p.c) / det };
}

/** Shoelace area, positive for the clockwise (in image coordinates) corner order of a Quad. */
function polygonArea(q: Point[]): number {
  let twice = 0;
  q.forEach((p, i) => {
    const n = q[(i + 1) % q.length]!;
    twice += p.x * n.y - n.x * p.y;
  });
  return twice / 2;
}

/** Warps the quadrilateral onto an upright rectangle as wide as its longer top or bottom, as tall as its longer side. */
async function warpToRectangle(png: Buffer, quad: Quad): Promise<Buffer> {
  const { data, info } = await (await loadSharp())(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const src = expand(quad, MARGIN);
  const width = Math.round(Math.max(dist(src[0], src[1]), dist(src[3], src[2])));
  const height = Math.round(Math.max(dist(src[0], src[3]), dist(src[1], src[2])));
  const corners: Quad = [
    { x: 0, y: 0 },
    { x: width, y: 0 },
    { x: width, y: height },
    { x: 0, y: height },
  ];
  const h = homography(corners, src);
  const out = Buffer.alloc(width * height * 3, 255);
  const { width: sw, height: sh } = info;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = h[6]! * (x + 0.5) + h[7]! * (y + 0.5) + 1;
      const u = (h[0]! * (x + 0.5) + h[1]! * (y + 0.5) + h[2]!) / d - 0.5;
      const v = (h[3]! * (x + 0.5) + h[4]! * (y + 0.5) + h[5]!) / d - 0.5;
      if (u < 0 || v < 0 || u > sw - 1 || v > sh - 1) continue;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      const x1 = Math.min(x0 + 1, sw - 1);
      const y1 = Math.min(y0 + 1, sh - 1);
      const fx = u - x0;
      const fy = v - y0;
      for (let c = 0; c < 3; c++) {
        const top = data[(y0 * sw + x0) * 3 + c]! * (1 - fx) + data[(y0 * sw + x1) * 3 + c]! * fx;
        const bottom = data[(y1 * sw + x0) * 3 + c]! * (1 - fx) + data[(y1 * sw + x1) * 3 + c]! * fx;
        out[(y * width + x) * 3 + c] = top * (1 - fy) + bottom * fy;
      }
    }
  }
  return (await loadSharp())(out, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 2 })
    .toBuffer();
}

/** The quadrilateral grown outwards from its centre by a share of its size. */
function expand(q: Quad, share: number): Quad {
  const cx = q.reduce((s, p) => s + p.x, 0) / 4;
  const cy = q.reduce((s, p) => s + p.y, 0) / 4;
  return q.map((p) => ({ x: p.x + (p.x - cx) * 2 * share, y: p.y + (p.y - cy) * 2 * share })) as Quad;
}

/**
 * The projective map taking each `from` corner to its `to` corner, as the 8 free entries of a 3x3 matrix
 * (the ninth is 1): four point pairs give eight linear equations, solved by Gaussian elimination.
 */
export function homography(from: Quad, to: Quad): number[] {
  const rows: number[][] = [];
  from.forEach(({ x, y }, i) => {
    const { x: u, y: v } = to[i]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  });
  for (let col = 0; col < 8; col++) {
    const pivot = rows
      .slice(col)
      .reduce((b, r, k) => (Math.abs(r[col]!) > Math.abs(rows[b]![col]!) ? col + k : b), col);
    [rows[col], rows[pivot]] = [rows[pivot]!, rows[col]!];
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = rows[r]![col]! / rows[col]![col]!;
      for (let c = col; c < 9; c++) rows[r]![c]! -= f * rows[col]![c]!;
    }
  }
  return rows.map((r, i) => r[8]! / r[i]!);
}
