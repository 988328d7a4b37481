// One spelling per report: the clinic's locale chooses American or British English, and every word the engine
// writes follows it (no "calibre" beside "hyperemia"). The engine's own phrases are written in American spelling;
// this turns them British where asked.

export const spellings = ["en-US", "en-GB"] as const;
export type Spelling = (typeof spellings)[number];
export const defaultSpelling: Spelling = "en-US";

/** [American, British] pairs of the words the engine writes; matched as whole words, keeping an initial capital. */
const pairs: readonly (readonly [string, string])[] = [
  ["caliber", "calibre"],
  ["hyperemia", "hyperaemia"],
  ["hemodynamically", "haemodynamically"],
  ["hemodynamic", "haemodynamic"],
  ["ischemia", "ischaemia"],
  ["edema", "oedema"],
  ["hematoma", "haematoma"],
  ["recognized", "recognised"],
  ["visualized", "visualised"],
  ["revascularization", "revascularisation"],
  ["centimeter", "centimetre"],
  ["millimeter", "millimetre"],
  ["liter", "litre"],
];

function replaceWords(text: string, from: (p: readonly [string, string]) => string, to: typeof from): string {
  let out = text;
  for (const pair of pairs) {
    const source = from(pair);
    const target = to(pair);
    out = out.replace(new RegExp(`\\b${source}(s?)\\b`, "gi"), (word, plural: string) => {
      const capital = word[0] !== word[0]?.toLowerCase();
      return `${capital ? target.charAt(0).toUpperCase() + target.slice(1) : target}${plural}`;
    });
  }
  return out;
}

/** The text in the chosen spelling. */
export function spell(text: string, spelling: Spelling): string {
  return spelling === "en-GB"
    ? replaceWords(
        text,
        (p) => p[0],
        (p) => p[1],
      )
    : replaceWords(
        text,
        (p) => p[1],
        (p) => p[0],
      );
}
