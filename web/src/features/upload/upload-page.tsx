import { useCallback, useMemo, useState } from "react";
import type { OcrResult } from "../../../../domain/contracts/ocr";
import { scanTypes } from "../../../../domain/report-engine/vocabulary";
import { DateWarnings } from "../reports/date-warnings";
import { ReportPreview } from "../reports/report-preview";
import { ReportSettingsCard } from "../reports/report-settings-card";
import { type MeasurementRow, rowsFromOcr, toStudyMeasurements } from "./measurement-rows";
import { MeasurementsTable } from "./measurements-table";
import {
  type Extraction,
  emptyPatient,
  noExtraction,
  type PatientField,
  type PatientFields,
  PatientInfoCard,
} from "./patient-info-card";
import { usePageImage } from "./use-page-image";
import { useWorksheetUpload } from "./use-worksheet-upload";
import { WorksheetUploadCard } from "./worksheet-upload-card";

function extractionOf(result: OcrResult): Extraction {
  const pick = (field: PatientField) => (result[field] ? result.fields[field].confidence : null);
  return { patientName: pick("patientName"), patientDob: pick("patientDob"), examDate: pick("examDate") };
}

/** The Report Generation screen (Upload view): worksheet in, checked patient data and measurements, report out. */
export function UploadPage() {
  const [patient, setPatient] = useState<PatientFields>(emptyPatient);
  const [extraction, setExtraction] = useState<Extraction>(noExtraction);
  const [scanType, setScanType] = useState("");
  const [scanTypeDetected, setScanTypeDetected] = useState(false);
  const [rows, setRows] = useState<MeasurementRow[]>([]);
  const [report, setReport] = useState<unknown>(null);

  const onNewUpload = useCallback(() => {
    setPatient(emptyPatient);
    setExtraction(noExtraction);
    setScanType("");
    setScanTypeDetected(false);
    setRows([]);
    setReport(null);
  }, []);

  const onOcrResult = useCallback((result: OcrResult) => {
    setPatient({
      patientName: result.patientName ?? "",
      patientDob: result.patientDob ?? "",
      examDate: result.examDate ?? "",
    });
    setExtraction(extractionOf(result));
    const detected = (scanTypes as readonly string[]).includes(result.scanType ?? "");
    setScanType(detected ? result.scanType! : "");
    setScanTypeDetected(detected);
    setRows(rowsFromOcr(result.measurements));
  }, []);

  const { phase, progress, worksheet, ocrResult, ocrFailed, upload } = useWorksheetUpload({ onNewUpload, onOcrResult });
  const page = usePageImage(worksheet?.id ?? null);
  const measurements = useMemo(() => (phase === "completed" ? toStudyMeasurements(rows) : null), [phase, rows]);

  const completed = phase === "completed";
  const ocrExtracted = Boolean(ocrResult && (ocrResult.patientName || ocrResult.patientDob || ocrResult.examDate));

  return (
    <div className="grid gap-6">
      <header>
        <h1 className="text-2xl font-semibold text-slate-900">Report Generation</h1>
        <p className="mt-1 text-slate-700">Upload an ultrasound worksheet to generate professional reports.</p>
      </header>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="grid min-w-0 gap-6">
          <WorksheetUploadCard
            phase={phase}
            progress={progress}
            worksheet={worksheet}
            page={page}
            ocrFailed={ocrFailed}
            onFile={(file) => void upload(file)}
          />
          <PatientInfoCard
            patient={patient}
            extraction={extraction}
            ocrExtracted={ocrExtracted}
            showManualNotice={completed && !ocrExtracted}
            scanType={scanType}
            scanTypeDetected={scanTypeDetected}
            onChange={(field, value) => {
              setPatient((current) => ({ ...current, [field]: value }));
              // An edited field is the clinician's value now, no longer what OCR read.
              setExtraction((current) => ({ ...current, [field]: null }));
            }}
            onScanTypeChange={(value) => {
              setScanType(value);
              setScanTypeDetected(false);
            }}
          />
          <DateWarnings patientDob={patient.patientDob} examDate={patient.examDate} />
          {completed ? <MeasurementsTable rows={rows} page={page} onChange={setRows} /> : null}
          <ReportSettingsCard
            worksheetId={worksheet?.id ?? null}
            scanType={scanType || null}
            measurements={measurements}
            patient={patient}
            onGenerated={setReport}
          />
        </div>
        <div className="min-w-0">
          <ReportPreview report={report} onChange={setReport} />
        </div>
      </div>
    </div>
  );
}
