// Seeded randomness for the worksheet generators. Every generator's output depends on the exact sequence of draws,
// so changing anything here changes every committed corpus: add new helpers, never alter the existing ones.

export function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function makeRng(seed) {
  const r = mulberry32(seed);
  return {
    f: (a = 0, b = 1) => a + (b - a) * r(),
    i: (a, b) => Math.floor(a + (b - a + 1) * r()), // inclusive
    pick: (arr) => arr[Math.floor(r() * arr.length)],
    chance: (p) => r() < p,
    gauss: () => {
      let u = 0;
      let v = 0;
      while (u === 0) u = r();
      while (v === 0) v = r();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    shuffle: (arr) => {
      const a = [...arr];
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    },
    raw: r,
  };
}

// Deterministic per-document seed. `tag` keeps generators that share a --seed from drawing the same sheets
// ("ws" is the original generator's, "varied" generate-varied's).
export function hashSeed(seed, i, tag = "ws") {
  let h = 2166136261 ^ seed;
  for (const c of `${tag}:${seed}:${i}`) {
    h ^= c.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
