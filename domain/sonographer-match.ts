/**
 * Which of the clinic's sonographers a name written on a worksheet means. Handwriting and OCR give "J. Smith",
 * "SMITH, JANE RDMS", "JS" or "Jane Smyth" for Jane Smith: the match tolerates order, case, accents, credentials,
 * initials and a one-letter misreading, and answers null unless exactly one sonographer fits best.
 */

export type SonographerCandidate = { id: number; name: string; initials: string };

/** Titles and credentials that say nothing about who the person is. */
const IGNORED = new Set([
  "dr",
  "mr",
  "mrs",
  "ms",
  "miss",
  "rdms",
  "rvt",
  "rvs",
  "rcs",
  "rdcs",
  "rt",
  "rn",
  "ba",
  "bs",
  "bsc",
  "msc",
  "crgs",
  "cvs",
  "avs",
  "sonographer",
  "sono",
  "tech",
]);

/** Below this no sonographer is named: the text is kept as written. */
const MIN_SCORE = 0.6;

export function nameTokens(name: string): string[] {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z\s]/g, " ")
    .split(/\s+/)
    .filter((t) => t.length > 0 && !IGNORED.has(t));
}

/** Levenshtein distance with adjacent transpositions, stopping early past `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push(new Array<number>(b.length + 1).fill(0));
    rows[i]![0] = i;
  }
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/** How much a written token costs to read as a name token: 0 same, 1 misread, 2 an initial; null no match. */
function tokenCost(written: string, target: string): number | null {
  if (written === target) return 0;
  if (written.length === 1) return target.startsWith(written) ? 2 : null;
  if (Math.min(written.length, target.length) < 3) return null;
  const allowed = Math.max(written.length, target.length) >= 8 ? 2 : 1;
  return editDistance(written, target, allowed) <= allowed ? 1 : null;
}

/** The cheapest way to read every written token as a different name token (names are a few tokens long). */
function cheapestAssignment(written: string[], target: string[]): { misreads: number; initials: number } | null {
  let best: { misreads: number; initials: number; cost: number } | null = null;
  const used = new Array<boolean>(target.length).fill(false);
  const walk = (i: number, misreads: number, initials: number) => {
    const cost = misreads + initials * 2;
    if (best && cost >= best.cost) return;
    if (i === written.length) {
      best = { misreads, initials, cost };
      return;
    }
    target.forEach((t, j) => {
      if (used[j]) return;
      const c = tokenCost(written[i]!, t);
      if (c === null) return;
      used[j] = true;
      walk(i + 1, misreads + (c === 1 ? 1 : 0), initials + (c === 2 ? 1 : 0));
      used[j] = false;
    });
  };
  walk(0, 0, 0);
  return best;
}

/** 0..1: how well the written name fits one sonographer. */
export function nameScore(written: string, candidate: Pick<SonographerCandidate, "name" | "initials">): number {
  const tokens = nameTokens(written);
  if (tokens.length === 0) return 0;
  const initials = candidate.initials.toLowerCase().replace(/[^a-z]/g, "");
  // "JS" or "J.S." written alone: the sonographer's initials.
  const joined = tokens.join("");
  if (initials.length >= 2 && joined.length <= 4 && joined === initials) return 0.8;
  const target = nameTokens(candidate.name);
  if (tokens.length > target.length || tokens.every((t) => t.length === 1)) return 0;
  const fit = cheapestAssignment(tokens, target);
  if (!fit) return 0;
  const missing = target.length - tokens.length;
  return Math.max(0, 1 - 0.05 * fit.misreads - 0.1 * fit.initials - 0.15 * missing);
}

/** The one sonographer the written name means, or null when none fits or several fit equally well. */
export function matchSonographer<T extends SonographerCandidate>(written: string | null, sonographers: T[]): T | null {
  if (!written?.trim()) return null;
  let best: T | null = null;
  let bestScore = 0;
  let tied = false;
  for (const s of sonographers) {
    const score = nameScore(written, s);
    if (score > bestScore) {
      best = s;
      bestScore = score;
      tied = false;
    } else if (score === bestScore && score > 0) {
      tied = true;
    }
  }
  return best && bestScore >= MIN_SCORE && !tied ? best : null;
}
