import { lexiconFieldOf } from "./field-labels";
import { nameLexicon } from "./name-lexicon";
import { squash } from "./worksheet-vocabulary";

/**
 * Words of a clinic's, a department's or a form's title, an address or a person who is not the patient: a line
 * holding one is no patient's name, however name-like its other words ("Hillcrest Vascular Associates", "Dr Anna
 * Reid", "Carotid Duplex Scan").
 */
const NOT_A_PATIENT = new Set(
  [
    // institutions
    "clinic clinics centre center hospital hospitals health healthcare medical medicine imaging radiology diagnostic",
    "diagnostics laboratory laboratories lab labs associates group partners practice institute department dept unit",
    "service services ultrasound vascular vein veins artery arteries heart cardiology cardiac surgery surgical",
    "private public university college foundation trust network specialists specialist care and of the st saint",
    // a form's own words
    "carotid venous arterial duplex doppler scan study studies exam examination worksheet report form assessment",
    "lower upper extremity extremities limb limbs leg legs insufficiency reflux technologist sonographer patient",
    "right left bilateral page confidential",
    // addresses
    "street road avenue ave blvd boulevard lane drive close parkway highway suite level floor building po box",
    // people who are not the patient
    "dr doctor prof professor physician referring",
  ]
    .join(" ")
    .split(" "),
);

/** A word of a name as printed or written: capitalised or in capitals, an initial, a hyphenated or O' name. */
const NAME_WORD = /^(?:[A-Z][a-z]*['’-]?[A-Za-z]+(?:-[A-Z][A-Za-z]+)?|[A-Z]\.?)$/;

/**
 * Whether a line of text has the shape of a patient's name, with nothing else on it: two to four words, each
 * capitalised (or an initial), at least two of them in the name lexicon, no digit, no colon, no word of a title,
 * an address or a label ("Ashley R. Lewis", "LEWIS, Ashley"). Used when the page has no name label at all.
 */
export function isNameShaped(text: string): boolean {
  const trimmed = text.trim().replace(/\s+/g, " ");
  if (/[\d:;/@#&()]/.test(trimmed)) return false;
  const words = trimmed
    .replace(/,/g, " ")
    .split(" ")
    .filter((w) => w.length > 0);
  if (words.length < 2 || words.length > 4) return false;
  if (!words.every((w) => NAME_WORD.test(w))) return false;
  const lexicon = nameLexicon();
  let names = 0;
  for (const word of words) {
    const plain = squash(word);
    if (NOT_A_PATIENT.has(plain)) return false;
    // A label's own word ("Name", "Age", "Ward") on the line: it is a label, or its value, not a bare name.
    if (plain.length > 1 && lexiconFieldOf(plain) !== undefined) return false;
    if (plain.length >= 2 && lexicon.has(plain)) names++;
  }
  return names >= 2;
}
