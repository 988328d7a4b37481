import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { OcrResult } from "../../../../domain/contracts/ocr";
import { type PatientInput, type PatientSex, patientSexes } from "../../../../domain/contracts/reports";
import { scanTypes } from "../../../../domain/report-engine/vocabulary";
import { DateWarnings } from "../reports/date-warnings";
import { emptyHeader, type HeaderForm, headerFieldsOf } from "../reports/header-fields";
import { ReportPreview } from "../reports/report-preview";
import { ReportSettingsCard } from "../reports/report-settings-card";
import { SonographerImpression } from "../reports/sonographer-impression";
import { BackgroundReadingList } from "./background-reading-list";
import { MachineSrCard, machineSrOrigin } from "./machine-sr-card";
import { type MeasurementRow, rowsFromOcr, toStudyMeasurements } from "./measurement-rows";
import { MeasurementsTable, rowName } from "./measurements-table";
import {
  keptObservations,
  type ObservationRow,
  ObservationsCard,
  observationName,
  observationRowsFromOcr,
} from "./observations-card";
import { type Extraction, emptyPatient, noExtraction, type PatientFields, PatientInfoCard } from "./patient-info-card";
import { useBackgroundReading } from "./use-background-reading";
import { usePageImage } from "./use-page-image";
import { patientDataRead, useWorksheetUpload } from "./use-worksheet-upload";
import { WorksheetUploadCard } from "./worksheet-upload-card";
import { WorksheetViewer } from "./worksheet-viewer";

/** Where the patient fields came from, as the Patient Information badge says it. */
function readingLabel(reading: OcrResult | null): string {
  if (reading?.source === "dicom-sr") return "Read from DICOM SR";
  return reading?.machineSr ? "Read from worksheet and DICOM SR" : "OCR Extracted";
}

/** The fields checked beside the worksheet: as OCR read them, then as the clinician corrects them. */
type Sheet = {
  patient: PatientFields;
  header: HeaderForm;
  indication: string;
  comments: string;
  /** Per field, how sure OCR was; null once the clinician has changed it. */
  extraction: Extraction;
  scanType: string;
  scanTypeDetected: boolean;
};

const emptySheet: Sheet = {
  patient: emptyPatient,
  header: emptyHeader,
  indication: "",
  comments: "",
  extraction: noExtraction,
  scanType: "",
  scanTypeDetected: false,
};

/** What OCR read of the sheet: each field's value, and how sure it was where it read one. */
function readSheet(result: OcrResult): Sheet {
  const f = result.fields;
  const sex = f.sex.value?.trim().toLowerCase() ?? "";
  const header: HeaderForm = {
    mrn: f.mrn.value ?? "",
    patientSex: patientSexes.includes(sex as PatientSex) ? (sex as PatientSex) : "",
    referringPhysician: f.referringPhysician.value ?? "",
    sonographerName: f.sonographer.value ?? "",
  };
  const sure = (field: { value: string | null; confidence: number }) => (field.value ? field.confidence : null);
  const extraction: Extraction = {
    patientName: result.patientName ? f.patientName.confidence : null,
    patientDob: result.patientDob ? f.patientDob.confidence : null,
    examDate: result.examDate ? f.examDate.confidence : null,
    mrn: sure(f.mrn),
    patientSex: header.patientSex ? f.sex.confidence : null,
    referringPhysician: sure(f.referringPhysician),
    sonographerName: sure(f.sonographer),
    indication: sure(f.indication),
  };
  const detected = (scanTypes as readonly string[]).includes(result.scanType ?? "");
  return {
    patient: {
      patientName: result.patientName ?? "",
      patientDob: result.patientDob ?? "",
      examDate: result.examDate ?? "",
    },
    header,
    indication: f.indication.value ?? "",
    comments: f.comments.value ?? "",
    extraction,
    scanType: detected ? result.scanType! : "",
    scanTypeDetected: detected,
  };
}

/**
 * The Report Generation screen (Upload view): worksheet in; patient and header fields checked; after OCR the
 * worksheet beside the measurement table; then the physician, Generate, and the draft beside the sonographer's
 * own impression.
 */
export function UploadPage() {
  const [sheet, setSheet] = useState<Sheet>(emptySheet);
  const { patient, header, indication, comments, extraction, scanType, scanTypeDetected } = sheet;
  const [rows, setRows] = useState<MeasurementRow[]>([]);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [observationRows, setObservationRows] = useState<ObservationRow[]>([]);
  const [report, setReport] = useState<unknown>(null);
  const [generations, setGenerations] = useState(0);
  /** The reading with the machine's DICOM SR merged in, once one is added beside the worksheet. */
  const [merged, setMerged] = useState<OcrResult | null>(null);
  const previewRef = useRef<HTMLElement>(null);

  const onNewUpload = useCallback(() => {
    setSheet(emptySheet);
    setRows([]);
    setObservationRows([]);
    setSelectedKey(null);
    setReport(null);
    setMerged(null);
  }, []);

  const onOcrResult = useCallback((result: OcrResult) => {
    setSheet(readSheet(result));
    setRows(rowsFromOcr(result.measurements));
    setObservationRows(observationRowsFromOcr(result.observations));
  }, []);

  /** A field the clinician changed is their value now, no longer what OCR read. */
  const edit = (change: (current: Sheet) => Partial<Sheet>, field?: keyof Extraction) =>
    setSheet((current) => ({
      ...current,
      ...change(current),
      extraction: field ? { ...current.extraction, [field]: null } : current.extraction,
    }));

  const { phase, progress, stage, ocrProgress, worksheet, ocrResult, ocrFailed, upload, open } = useWorksheetUpload({
    onNewUpload,
    onOcrResult,
  });
  const batch = useBackgroundReading();
  // A DICOM SR has no page: nothing to fetch, show or compare the values with.
  const fromSr = worksheet?.kind === "dicom-sr";
  const page = usePageImage(worksheet && !fromSr ? worksheet.id : null);
  const measurements = useMemo(() => (phase === "completed" ? toStudyMeasurements(rows) : null), [phase, rows]);
  const observations = useMemo(
    () => (phase === "completed" ? keptObservations(observationRows) : null),
    [phase, observationRows],
  );
  const selected = rows.find((r) => r.key === selectedKey) ?? null;
  const selectedObservation = observationRows.find((r) => r.key === selectedKey) ?? null;

  // After Generate the draft comes into view and takes focus, so keyboard and screen reader users land on it.
  useEffect(() => {
    if (generations === 0 || !previewRef.current) return;
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    previewRef.current.scrollIntoView({ block: "start", behavior: reduced ? "auto" : "smooth" });
    previewRef.current.focus({ preventScroll: true });
  }, [generations]);

  const completed = phase === "completed";
  const reading = merged ?? ocrResult;
  const ocrExtracted = patientDataRead(reading);
  const checked: PatientInput = {
    ...patient,
    ...headerFieldsOf(header),
    indication: indication.trim() || null,
    sonographerComments: comments.trim() || null,
  };

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
            stage={stage}
            ocrProgress={ocrProgress}
            worksheet={worksheet}
            page={page}
            ocrFailed={ocrFailed}
            onFile={(file) => void upload(file)}
            onFiles={(files) => void batch.add(files)}
          />
          {completed && worksheet && !fromSr && !ocrFailed ? (
            <MachineSrCard
              key={worksheet.id}
              worksheetId={worksheet.id}
              added={reading?.machineSr ? reading : null}
              onMerged={(result) => {
                setMerged(result);
                onOcrResult(result);
              }}
            />
          ) : null}
          <BackgroundReadingList items={batch.items} onOpen={(id) => void open(id)} onDismiss={batch.dismiss} />
        </div>
        <div className="grid min-w-0 gap-6">
          <PatientInfoCard
            patient={patient}
            header={header}
            indication={indication}
            extraction={extraction}
            ocrExtracted={ocrExtracted}
            extractedLabel={readingLabel(reading)}
            showManualNotice={completed && !ocrExtracted}
            scanType={scanType}
            scanTypeDetected={scanTypeDetected}
            onChange={(field, value) => edit((s) => ({ patient: { ...s.patient, [field]: value } }), field)}
            onHeaderChange={(field, value) => edit((s) => ({ header: { ...s.header, [field]: value } }), field)}
            onIndicationChange={(value) => edit(() => ({ indication: value }), "indication")}
            onScanTypeChange={(value) => edit(() => ({ scanType: value, scanTypeDetected: false }))}
          />
          <DateWarnings patientDob={patient.patientDob} examDate={patient.examDate} />
        </div>
      </div>
      {completed && fromSr ? (
        <section aria-label="Check the values of the structured report" className="grid items-start gap-6">
          <MeasurementsTable
            rows={rows}
            page={null}
            selectedKey={selectedKey}
            onSelect={setSelectedKey}
            onChange={setRows}
            fromSr
            notes={ocrResult?.notes ?? []}
            origin={ocrResult ? machineSrOrigin(ocrResult) : null}
          />
        </section>
      ) : completed ? (
        <section
          aria-label="Check the values against the worksheet"
          className="grid items-start gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]"
        >
          <WorksheetViewer
            page={page}
            box={selected?.box ?? selectedObservation?.read.box ?? null}
            label={
              selected
                ? `${rowName(selected)}, read as ${selected.readAs ?? selected.valueText}`
                : selectedObservation
                  ? `${observationName(selectedObservation)}, ticked as ${selectedObservation.read.text}`
                  : null
            }
            className="lg:sticky lg:top-4 lg:h-[calc(100vh-2rem)]"
          />
          <div className="grid min-w-0 gap-6">
            <MeasurementsTable
              rows={rows}
              page={page}
              selectedKey={selectedKey}
              onSelect={setSelectedKey}
              onChange={setRows}
              notes={reading?.notes ?? []}
            />
            <ObservationsCard
              rows={observationRows}
              selectedKey={selectedKey}
              onSelect={setSelectedKey}
              onChange={setObservationRows}
            />
          </div>
        </section>
      ) : null}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <div className="grid min-w-0 gap-6">
          <ReportSettingsCard
            worksheetId={worksheet?.id ?? null}
            scanType={scanType || null}
            measurements={measurements}
            observations={observations}
            patient={checked}
            onGenerated={(generated) => {
              setReport(generated);
              setGenerations((n) => n + 1);
            }}
          />
          {completed ? (
            <SonographerImpression comments={comments} onChange={(value) => edit(() => ({ comments: value }))} />
          ) : null}
        </div>
        <section
          ref={previewRef}
          tabIndex={-1}
          aria-label="Generated report"
          className="min-w-0 rounded-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        >
          <ReportPreview report={report} onChange={setReport} />
        </section>
      </div>
    </div>
  );
}
