import { z } from "zod";
import { type PatientSex, patientSexes } from "../../../../domain/contracts/reports";
import type { Sonographer } from "../../../../domain/contracts/sonographers";
import { sonographer } from "../../../../domain/contracts/sonographers";
import { matchSonographer } from "../../../../domain/sonographer-match";
import { Input, Label, Select } from "../../components/ui/input";
import { useApiQuery } from "../../lib/api";
import { cn } from "../../lib/cn";

/** The worksheet's header fields as a form edits them ("" for none). */
export type HeaderForm = {
  mrn: string;
  patientSex: PatientSex | "";
  referringPhysician: string;
  sonographerName: string;
};
export type HeaderField = keyof HeaderForm;

export const emptyHeader: HeaderForm = { mrn: "", patientSex: "", referringPhysician: "", sonographerName: "" };

/** What the API takes: blank is none. */
export function headerFieldsOf(form: HeaderForm) {
  return {
    mrn: form.mrn.trim() || null,
    patientSex: form.patientSex || null,
    referringPhysician: form.referringPhysician.trim() || null,
    sonographerName: form.sonographerName.trim() || null,
  };
}

/** Per field: null when OCR did not fill it, else how sure it was (0..1). */
export type Extraction<K extends string> = Partial<Record<K, number | null>>;

const LOW_FIELD_CONFIDENCE = 0.8;
const sexWords: Record<PatientSex, string> = { female: "Female", male: "Male", other: "Other" };

/** A field OCR filled: green, with a note that says so (and asks for a check when it was unsure). */
export function extractedClass(confidence: number | null | undefined) {
  return cn(confidence != null && "border-green-600 bg-green-50");
}

export function ExtractedNote({ id, confidence }: { id: string; confidence: number | null | undefined }) {
  if (confidence == null) return null;
  return (
    <p id={id} className="text-xs text-green-800">
      Extracted from document
      {confidence < LOW_FIELD_CONFIDENCE ? (
        <span className="ml-1 font-medium text-amber-800">(low confidence: compare with the worksheet)</span>
      ) : null}
    </p>
  );
}

/** Which clinic sonographer the typed name means (the server matches the same way when it saves). */
function SonographerMatch({ id, name, staff }: { id: string; name: string; staff: Sonographer[] | undefined }) {
  if (!name.trim() || !staff) return null;
  const match = matchSonographer(name, staff);
  return (
    <p id={id} className="text-xs text-slate-700">
      {match ? `Clinic sonographer: ${match.name}` : "Not one of the clinic's sonographers: kept as written"}
    </p>
  );
}

/**
 * MRN, sex, referring physician and sonographer: shown and edited on the upload screen and in the editor.
 * The sonographer field suggests the clinic's sonographers and says which one the name matches.
 */
export function HeaderFieldInputs({
  idPrefix,
  values,
  onChange,
  extraction = {},
}: {
  idPrefix: string;
  values: HeaderForm;
  onChange: (field: HeaderField, value: string) => void;
  extraction?: Extraction<HeaderField>;
}) {
  const staff = useApiQuery(["/api/sonographers"], z.array(sonographer));
  const id = (field: HeaderField) => `${idPrefix}-${field}`;
  const describedBy = (field: HeaderField, extra?: string) =>
    [extraction[field] != null ? `${id(field)}-note` : null, extra].filter(Boolean).join(" ") || undefined;
  const text = (
    field: Exclude<HeaderField, "patientSex">,
    label: string,
    extra?: { list?: string; match?: boolean },
  ) => (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id(field)}>{label}</Label>
      <Input
        id={id(field)}
        value={values[field]}
        autoComplete="off"
        list={extra?.list}
        onChange={(e) => onChange(field, e.target.value)}
        aria-describedby={describedBy(field, extra?.match ? `${id(field)}-match` : undefined)}
        className={extractedClass(extraction[field])}
      />
      <ExtractedNote id={`${id(field)}-note`} confidence={extraction[field]} />
      {extra?.match ? <SonographerMatch id={`${id(field)}-match`} name={values[field]} staff={staff.data} /> : null}
    </div>
  );
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {text("mrn", "MRN")}
      <div className="grid content-start gap-1.5">
        <Label htmlFor={id("patientSex")}>Sex</Label>
        <Select
          id={id("patientSex")}
          value={values.patientSex}
          onChange={(e) => onChange("patientSex", e.target.value)}
          aria-describedby={describedBy("patientSex")}
          className={extractedClass(extraction.patientSex)}
        >
          <option value="">Not stated</option>
          {patientSexes.map((sex) => (
            <option key={sex} value={sex}>
              {sexWords[sex]}
            </option>
          ))}
        </Select>
        <ExtractedNote id={`${id("patientSex")}-note`} confidence={extraction.patientSex} />
      </div>
      {text("referringPhysician", "Referring Physician")}
      {text("sonographerName", "Sonographer", { list: `${idPrefix}-sonographers`, match: true })}
      <datalist id={`${idPrefix}-sonographers`}>
        {(staff.data ?? []).map((s) => (
          <option key={s.id} value={s.name} />
        ))}
      </datalist>
    </div>
  );
}
