// Fonts of the worksheet generators: Debian's DejaVu/Liberation for the printed form and typed values, and Debian's
// handwriting fonts for written values. Importing this module registers them all (or exits if one is missing).
import fs from "node:fs";
import { GlobalFonts } from "@napi-rs/canvas";

export const FONT_FILES = {
  // printed form + "clean" typed values
  Sans: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  SansBold: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
  Lib: "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
  LibBold: "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
  Serif: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
  SerifBold: "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
  LibSerif: "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
  LibSerifBold: "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
  Mono: "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
  // handwriting-like (Debian: fonts-dkg-handwriting fonts-breip fonts-rufscript fonts-sjfonts
  // fonts-humor-sans fonts-kristi fonts-dancingscript fonts-tomsontalks fonts-bwht)
  HDkg: "/usr/share/fonts/truetype/fifthhorseman/dkg.ttf",
  HBreip: "/usr/share/fonts/truetype/breip/Breip.ttf",
  HRuf: "/usr/share/fonts/truetype/rufscript/Rufscript010.ttf",
  HSteve: "/usr/share/fonts/truetype/sjfonts/SteveHand.ttf",
  HDelphine: "/usr/share/fonts/truetype/sjfonts/Delphine.ttf",
  HHumor: "/usr/share/fonts/truetype/humor-sans/Humor-Sans.ttf",
  HKristi: "/usr/share/fonts/truetype/kristi/Kristi.ttf",
  HDancing: "/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf",
  HTomson: "/usr/share/fonts/truetype/tomsontalks/TomsonTalks.ttf",
  HBWConnect: "/usr/share/fonts/opentype/bwht/BecauseWeConnect-Regular.otf",
  HBWMentor: "/usr/share/fonts/opentype/bwht/BecauseWeMentor-Regular.otf",
  HBWOrganize: "/usr/share/fonts/opentype/bwht/BecauseWeOrganize-Regular.otf",
};
for (const [name, file] of Object.entries(FONT_FILES)) {
  if (!fs.existsSync(file)) {
    console.error(`missing font ${file} (see /work/shared/worksheets/README.md for the Debian packages)`);
    process.exit(2);
  }
  GlobalFonts.registerFromPath(file, `ws${name}`);
}

/** Sets `ctx.font` to one of FONT_FILES' families (by its key) at `px` pixels. */
export function setFont(ctx, px, family) {
  ctx.font = `${Math.round(px)}px ws${family}`;
}

// size multipliers so that each handwriting font has a similar visual x-height
export const HAND_FONTS = [
  { name: "HDkg", scale: 1.0 },
  { name: "HBreip", scale: 1.1 },
  { name: "HRuf", scale: 1.0 },
  { name: "HSteve", scale: 0.95 },
  { name: "HDelphine", scale: 1.35 },
  { name: "HHumor", scale: 0.9 },
  { name: "HKristi", scale: 1.4 },
  { name: "HDancing", scale: 1.1 },
  { name: "HTomson", scale: 1.05 },
  { name: "HBWConnect", scale: 1.0 },
  { name: "HBWMentor", scale: 1.05 },
  { name: "HBWOrganize", scale: 1.05 },
];
