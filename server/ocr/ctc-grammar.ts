/**
 * Small regular grammars for constrained CTC decoding: a pattern is a sequence of character classes with repeat
 * counts ("1-2 digits, a separator, 1-2 digits, ..."); a grammar is a set of alternative patterns, run as an NFA
 * whose state sets are cached, so each (state, character) step is computed once.
 */

export type Token = { chars: string; min: number; max: number };
export type Pattern = Token[];

type Position = { p: number; i: number; c: number };
type StateInfo = { positions: Position[]; accepting: boolean; next: Map<string, string | null> };

export class Grammar {
  /** Every character some pattern can take. */
  readonly alphabet: string;
  readonly start: string;
  private readonly states = new Map<string, StateInfo>();

  constructor(private readonly patterns: Pattern[]) {
    this.alphabet = [...new Set(patterns.flatMap((p) => p.flatMap((t) => [...t.chars])))].join("");
    this.start = this.intern(patterns.map((_, p) => ({ p, i: 0, c: 0 })));
  }

  /** The state after reading `char` in `state`, or null when no pattern allows it there. */
  step(state: string, char: string): string | null {
    const info = this.states.get(state)!;
    const cached = info.next.get(char);
    if (cached !== undefined) return cached;
    const moved: Position[] = [];
    for (const pos of info.positions) {
      const token = this.patterns[pos.p]![pos.i]!;
      if (pos.c < token.max && token.chars.includes(char)) moved.push({ ...pos, c: pos.c + 1 });
    }
    const next = moved.length ? this.intern(moved) : null;
    info.next.set(char, next);
    return next;
  }

  accepts(state: string): boolean {
    return this.states.get(state)!.accepting;
  }

  /** Whether the whole text is in the language. */
  matches(text: string): boolean {
    let state: string | null = this.start;
    for (const ch of text) {
      state = this.step(state, ch);
      if (state === null) return false;
    }
    return this.accepts(state);
  }

  /** Adds the positions reachable without reading (a token that has its minimum may hand over to the next). */
  private intern(positions: Position[]): string {
    const closure: Position[] = [];
    const seen = new Set<string>();
    const stack = [...positions];
    while (stack.length) {
      const pos = stack.pop()!;
      const key = `${pos.p}.${pos.i}.${pos.c}`;
      if (seen.has(key)) continue;
      seen.add(key);
      closure.push(pos);
      const pattern = this.patterns[pos.p]!;
      if (pos.c >= pattern[pos.i]!.min && pos.i + 1 < pattern.length) stack.push({ p: pos.p, i: pos.i + 1, c: 0 });
    }
    const key = [...seen].sort().join("|");
    if (!this.states.has(key)) {
      const accepting = closure.some((pos) => {
        const pattern = this.patterns[pos.p]!;
        return pos.i === pattern.length - 1 && pos.c >= pattern[pos.i]!.min;
      });
      this.states.set(key, { positions: closure, accepting, next: new Map() });
    }
    return key;
  }
}

const DIGITS = "0123456789";
const SEPARATORS = "./-";
const t = (chars: string, min: number, max = min): Token => ({ chars, min, max });

/** A day or month: one or two digits, the first of two at most 3 (a day) or 1 (a month). */
const day = [t("0123", 0, 1), t(DIGITS, 1)];
const month = [t("01", 0, 1), t(DIGITS, 1)];
/** Four-digit years on a worksheet are 18xx to 20xx: a birth within 150 years, an exam not in the future. */
const longYears: Pattern[] = [
  [t("1", 1), t("89", 1), t(DIGITS, 2)],
  [t("2", 1), t("0", 1), t(DIGITS, 2)],
];
const sep = t(SEPARATORS, 1);

/** Dates as worksheets write them: d/m/yy or d/m/yyyy with . / or -, and ISO yyyy-mm-dd. */
export const DATE_GRAMMAR = new Grammar([
  [...day, sep, ...month, sep, t(DIGITS, 2)],
  ...longYears.map((year) => [...day, sep, ...month, sep, ...year]),
  ...longYears.map((year) => [...year, sep, ...month, sep, ...day]),
]);

/** Whole numbers without a leading zero (velocities, reflux in ms). */
export const INTEGER_GRAMMAR = new Grammar([[t("0", 1)], [t("123456789", 1), t(DIGITS, 0, 3)]]);

/** Numbers with an optional decimal part (reflux in seconds, diameters in mm). */
export const DECIMAL_GRAMMAR = new Grammar([
  [t("0", 1)],
  [t("123456789", 1), t(DIGITS, 0, 2)],
  [t(DIGITS, 1, 3), t(".", 1), t(DIGITS, 1, 2)],
]);
