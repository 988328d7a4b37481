import sharp from "sharp";

/**
 * Sample material for the export tests and the rendered sample pages: a drawn signature, a clinic
 * logo and a carotid report's text. Images are drawn here so that no binary fixture is needed.
 */

export async function sampleSignaturePng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="150">
  <path d="M24 104 C 54 30, 84 30, 92 92 S 130 128, 150 70 C 162 36, 176 40, 182 96 C 188 126, 214 60, 236 76
           S 268 112, 292 64 C 304 46, 318 58, 326 84 S 360 92, 384 52" stroke="#111" stroke-width="3.2"
        fill="none" stroke-linecap="round" stroke-linejoin="round"/>
  <path d="M60 118 L 340 112" stroke="#111" stroke-width="1.6" stroke-linecap="round"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function sampleLogoPng(color = "#0b5cad"): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="120">
  <circle cx="60" cy="60" r="50" fill="${color}"/>
  <path d="M22 62 H44 L52 36 L64 88 L74 50 L80 62 H98" stroke="#fff" stroke-width="6" fill="none"
        stroke-linejoin="round" stroke-linecap="round"/>
  <text x="124" y="56" font-family="Liberation Sans, Arial" font-size="34" font-weight="bold" fill="${color}">Riverside</text>
  <text x="124" y="92" font-family="Liberation Sans, Arial" font-size="24" fill="#475569">Vascular Lab</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export const sampleReportText = {
  patientName: "Margaret O'Neil",
  patientDob: "1950-10-27",
  examDate: "2026-11-02",
  studyType: "Carotid Duplex",
  indication: "Left-sided amaurosis fugax two weeks ago. Known hypertension and hypercholesterolaemia.",
  findings: [
    "Right ICA: peak systolic velocity 95 cm/s, end diastolic velocity 22 cm/s. Smooth, calcified plaque at the bulb. ICA/CCA ratio 1.3.",
    "Left ICA: peak systolic velocity 262 cm/s, end diastolic velocity 84 cm/s with post-stenotic turbulence. Heterogeneous plaque extending 1.5 cm into the proximal ICA. ICA/CCA ratio 4.2.",
    "Both vertebral arteries show antegrade flow. Common carotid arteries are patent with normal waveforms.",
  ].join("\n\n"),
  impression: [
    "1. Left internal carotid artery stenosis of 70-99% (SRU consensus criteria).",
    "2. Right internal carotid artery stenosis of less than 50%.",
    "3. Antegrade vertebral flow bilaterally.",
  ].join("\n"),
};
