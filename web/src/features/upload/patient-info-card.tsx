import { AlertTriangle } from "lucide-react";
import { scanTypes } from "../../../../domain/report-engine/vocabulary";
import { Badge, Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Input, Label, Select } from "../../components/ui/input";
import { cn } from "../../lib/cn";

export type PatientFields = { patientName: string; patientDob: string; examDate: string };
export type PatientField = keyof PatientFields;
/** Per field: null when OCR did not fill it, else how sure it was (0..1). */
export type Extraction = Record<PatientField, number | null>;

export const emptyPatient: PatientFields = { patientName: "", patientDob: "", examDate: "" };
export const noExtraction: Extraction = { patientName: null, patientDob: null, examDate: null };

const fields: Array<{ key: PatientField; label: string; type: "text" | "date"; autoComplete: string }> = [
  { key: "patientName", label: "Patient Name", type: "text", autoComplete: "off" },
  { key: "patientDob", label: "Date of Birth", type: "date", autoComplete: "off" },
  { key: "examDate", label: "Exam Date", type: "date", autoComplete: "off" },
];

const LOW_FIELD_CONFIDENCE = 0.8;

export function PatientInfoCard({
  patient,
  extraction,
  ocrExtracted,
  showManualNotice,
  scanType,
  scanTypeDetected,
  onChange,
  onScanTypeChange,
}: {
  patient: PatientFields;
  extraction: Extraction;
  /** Any field was extracted by the last OCR run (the spec's badge). */
  ocrExtracted: boolean;
  /** OCR finished and extracted nothing (the spec's yellow notice). */
  showManualNotice: boolean;
  scanType: string;
  scanTypeDetected: boolean;
  onChange: (field: PatientField, value: string) => void;
  onScanTypeChange: (value: string) => void;
}) {
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle>Patient Information</CardTitle>
        {ocrExtracted ? <Badge tone="green">OCR Extracted</Badge> : null}
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
        {fields.map((field) => {
          const confidence = extraction[field.key];
          const extracted = confidence !== null;
          const low = extracted && confidence < LOW_FIELD_CONFIDENCE;
          const noteId = `${field.key}-note`;
          return (
            <div key={field.key} className="grid gap-1.5">
              <Label htmlFor={field.key}>{field.label}</Label>
              <Input
                id={field.key}
                type={field.type}
                autoComplete={field.autoComplete}
                value={patient[field.key]}
                onChange={(event) => onChange(field.key, event.target.value)}
                aria-describedby={extracted ? noteId : undefined}
                className={cn(extracted && "border-green-600 bg-green-50")}
              />
              {extracted ? (
                <p id={noteId} className="text-xs text-green-800">
                  Extracted from document
                  {low ? (
                    <span className="ml-1 font-medium text-amber-800">
                      (low confidence: compare with the worksheet)
                    </span>
                  ) : null}
                </p>
              ) : null}
            </div>
          );
        })}
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
