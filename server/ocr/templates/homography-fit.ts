import { homography, type Quad } from "../flatten-page";

export type Point = { x: number; y: number };
export type PointPair = { from: Point; to: Point };
/** A 3x3 projective map as its 9 entries row by row (the last is 1 after fitting). */
export type Homography = number[];

export function applyHomography(h: Homography, p: Point): Point {
  const w = h[6]! * p.x + h[7]! * p.y + (h[8] ?? 1);
  return { x: (h[0]! * p.x + h[1]! * p.y + h[2]!) / w, y: (h[3]! * p.x + h[4]! * p.y + h[5]!) / w };
}

/** The inverse map (adjugate of the 3x3 matrix; the scale does not matter for a projective map). */
export function invertHomography(h: Homography): Homography {
  const [a, b, c, d, e, f, g, k, l = 1] = h as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number?,
  ];
  const inv = [
    e * l - f * k,
    c * k - b * l,
    b * f - c * e,
    f * g - d * l,
    a * l - c * g,
    c * d - a * f,
    d * k - e * g,
    b * g - a * k,
    a * e - b * d,
  ];
  return inv.map((x) => x / inv[8]!);
}

const withNine = (h: number[]): Homography => (h.length === 8 ? [...h, 1] : h);

/** Least-squares homography through many pairs (the DLT with h33 = 1, solved by its normal equations). */
export function leastSquaresHomography(pairs: PointPair[]): Homography | null {
  if (pairs.length < 4) return null;
  // Centre and scale both point sets so the equations are well conditioned.
  const norm = (pts: Point[]) => {
    const cx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
    const cy = pts.reduce((s, p) => s + p.y, 0) / pts.length;
    const d = pts.reduce((s, p) => s + Math.hypot(p.x - cx, p.y - cy), 0) / pts.length || 1;
    return { cx, cy, s: Math.SQRT2 / d };
  };
  const nf = norm(pairs.map((p) => p.from));
  const nt = norm(pairs.map((p) => p.to));
  const ata = Array.from({ length: 8 }, () => new Array<number>(9).fill(0));
  for (const { from, to } of pairs) {
    const x = (from.x - nf.cx) * nf.s;
    const y = (from.y - nf.cy) * nf.s;
    const u = (to.x - nt.cx) * nt.s;
    const v = (to.y - nt.cy) * nt.s;
    for (const row of [
      [x, y, 1, 0, 0, 0, -u * x, -u * y, u],
      [0, 0, 0, x, y, 1, -v * x, -v * y, v],
    ]) {
      for (let i = 0; i < 8; i++) for (let j = 0; j < 9; j++) ata[i]![j]! += row[i]! * row[j]!;
    }
  }
  const hn = solve(ata);
  if (!hn) return null;
  // Undo the normalisation: H = Tto^-1 * Hn * Tfrom.
  const tf = [nf.s, 0, -nf.s * nf.cx, 0, nf.s, -nf.s * nf.cy, 0, 0, 1];
  const tti = [1 / nt.s, 0, nt.cx, 0, 1 / nt.s, nt.cy, 0, 0, 1];
  const h = multiply(tti, multiply([...hn, 1], tf));
  return h.map((x) => x / h[8]!);
}

function multiply(a: number[], b: number[]): number[] {
  const out = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[i * 3 + j]! += a[i * 3 + k]! * b[k * 3 + j]!;
  return out;
}

/** Gaussian elimination with partial pivoting on an n x (n+1) augmented matrix; null when singular. */
function solve(rows: number[][]): number[] | null {
  const n = rows.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(rows[r]![col]!) > Math.abs(rows[pivot]![col]!)) pivot = r;
    if (Math.abs(rows[pivot]![col]!) < 1e-12) return null;
    [rows[col], rows[pivot]] = [rows[pivot]!, rows[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = rows[r]![col]! / rows[col]![col]!;
      for (let c = col; c <= n; c++) rows[r]![c]! -= f * rows[col]![c]!;
    }
  }
  return rows.map((r, i) => r[n]! / r[i]!);
}

/** A small seeded generator: the same pairs always give the same fit. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Four points with three on a line give no homography: reject samples whose triangles are nearly flat. */
function wellSpread(q: Point[]): boolean {
  const area = (a: Point, b: Point, c: Point) => Math.abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2;
  const [a, b, c, d] = q as [Point, Point, Point, Point];
  const scale = Math.max(...q.map((p) => Math.hypot(p.x - a.x, p.y - a.y)), 1);
  return Math.min(area(a, b, c), area(a, b, d), area(a, c, d), area(b, c, d)) > 0.01 * scale * scale;
}

export type HomographyFit = { h: Homography; inliers: number[] };

/**
 * RANSAC: homographies through four random pairs, the one most pairs agree with (within `tolerance` pixels of
 * the target), refitted by least squares on its inliers. Pairs may be wrong (a label that occurs twice, a
 * misread); they end up outliers. Null when fewer than `minInliers` agree.
 */
export function fitHomography(
  pairs: PointPair[],
  opts: { tolerance: number; minInliers: number; iterations?: number },
): HomographyFit | null {
  if (pairs.length < Math.max(4, opts.minInliers)) return null;
  const rnd = random(pairs.length * 7919);
  const inliersOf = (h: Homography) =>
    pairs.flatMap((p, i) => {
      const q = applyHomography(h, p.from);
      return Math.hypot(q.x - p.to.x, q.y - p.to.y) <= opts.tolerance ? [i] : [];
    });
  let best: HomographyFit | null = null;
  for (let it = 0; it < (opts.iterations ?? 400); it++) {
    const pick = new Set<number>();
    while (pick.size < 4) pick.add(Math.floor(rnd() * pairs.length));
    const sample = [...pick].map((i) => pairs[i]!);
    if (!wellSpread(sample.map((p) => p.from)) || !wellSpread(sample.map((p) => p.to))) continue;
    const raw = homography(sample.map((p) => p.from) as Quad, sample.map((p) => p.to) as Quad);
    if (!raw.every(Number.isFinite)) continue;
    const h = withNine(raw);
    const inliers = inliersOf(h);
    if (!best || inliers.length > best.inliers.length) best = { h, inliers };
  }
  if (!best || best.inliers.length < opts.minInliers) return null;
  // Refit on the inliers, then take the inliers of the refined map (twice settles it).
  for (let round = 0; round < 2; round++) {
    const refined = leastSquaresHomography(best.inliers.map((i) => pairs[i]!));
    if (!refined) break;
    const inliers = inliersOf(refined);
    if (inliers.length < best.inliers.length) break;
    best = { h: refined, inliers };
  }
  return best.inliers.length >= opts.minInliers ? best : null;
}
