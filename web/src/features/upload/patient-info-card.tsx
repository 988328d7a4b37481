import { AlertTriangle } from "lucide-react";
import { scanTypes } from "../../../../domain/report-engine/vocabulary";
import { Badge, Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Input, Label, Select, Textarea } from "../../components/ui/input";
import { cn } from "../../lib/cn";
import {
  ExtractedNote,
  extractedClass,
  type Extraction as FieldExtraction,
  type HeaderField,
  HeaderFieldInputs,
  type HeaderForm,
} from "../reports/header-fields";

export type PatientFields = { patientName: string; patientDob: string; examDate: string };
export type PatientField = keyof PatientFields;
/** Per field: null (or absent) when OCR did not fill it, else how sure it was (0..1). */
export type Extraction = FieldExtraction<PatientField | HeaderField | "indication">;

export const emptyPatient: PatientFields = { patientName: "", patientDob: "", examDate: "" };
export const noExtraction: Extraction = {};

const fields: Array<{ key: PatientField; label: string; type: "text" | "date"; autoComplete: string }> = [
  { key: "patientName", label: "Patient Name", type: "text", autoComplete: "off" },
  { key: "patientDob", label: "Date of Birth", type: "date", autoComplete: "off" },
  { key: "examDate", label: "Exam Date", type: "date", autoComplete: "off" },
];

export function PatientInfoCard({
  patient,
  header,
  indication,
  extraction,
  ocrExtracted,
  extractedLabel = "OCR Extracted",
  showManualNotice,
  scanType,
  scanTypeDetected,
  onChange,
  onHeaderChange,
  onIndicationChange,
  onScanTypeChange,
}: {
  patient: PatientFields;
  /** MRN, sex, referring physician, sonographer as read from the sheet's header, then as checked. */
  header: HeaderForm;
  /** Goes into the report's Indication as written. */
  indication: string;
  extraction: Extraction;
  /** Any field was extracted by the last OCR run (the spec's badge). */
  ocrExtracted: boolean;
  /** What the badge says: the spec's "OCR Extracted", or that the fields came from the machine's DICOM SR. */
  extractedLabel?: string;
  /** OCR finished and extracted nothing (the spec's yellow notice). */
  showManualNotice: boolean;
  scanType: string;
  scanTypeDetected: boolean;
  onChange: (field: PatientField, value: string) => void;
  onHeaderChange: (field: HeaderField, value: string) => void;
  onIndicationChange: (value: string) => void;
  onScanTypeChange: (value: string) => void;
}) {
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle>Patient Information</CardTitle>
        {ocrExtracted ? <Badge tone="green">{extractedLabel}</Badge> : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {showManualNotice ? (
          <p
            role="status"
            className="flex items-start gap-2 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900"
          >
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            OCR couldn't extract patient information. Please enter details manually.
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          {fields.map((field) => {
            const confidence = extraction[field.key];
            const noteId = `${field.key}-note`;
            return (
              <div
                key={field.key}
                className={cn("grid content-start gap-1.5", field.key === "patientName" && "sm:col-span-2")}
              >
                <Label htmlFor={field.key}>{field.label}</Label>
                <Input
                  id={field.key}
                  type={field.type}
                  autoComplete={field.autoComplete}
                  value={patient[field.key]}
                  onChange={(event) => onChange(field.key, event.target.value)}
                  aria-describedby={confidence != null ? noteId : undefined}
                  className={extractedClass(confidence)}
                />
                <ExtractedNote id={noteId} confidence={confidence} />
              </div>
            );
          })}
        </div>
        <HeaderFieldInputs idPrefix="sheet" values={header} onChange={onHeaderChange} extraction={extraction} />
        <div className="grid gap-1.5">
          <Label htmlFor="indication">Indication</Label>
          <Textarea
            id="indication"
            rows={2}
            value={indication}
            onChange={(event) => onIndicationChange(event.target.value)}
            aria-describedby={["indication-help", extraction.indication != null ? "indication-note" : null]
              .filter(Boolean)
              .join(" ")}
            className={cn("min-h-0", extractedClass(extraction.indication))}
          />
          <ExtractedNote id="indication-note" confidence={extraction.indication} />
          <p id="indication-help" className="text-xs text-slate-700">
            Goes into the report's Indication as written here.
          </p>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="scanType">Scan type</Label>
          <Select
            id="scanType"
            value={scanType}
            onChange={(event) => onScanTypeChange(event.target.value)}
            aria-describedby={scanTypeDetected ? "scanType-note" : undefined}
            className={cn(scanTypeDetected && "border-green-600 bg-green-50")}
          >
            <option value="">Select a scan type</option>
            {scanTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </Select>
          {scanTypeDetected ? (
            <p id="scanType-note" className="text-xs text-green-800">
              Detected from the worksheet title
            </p>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
