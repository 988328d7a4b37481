import type { StudyMeasurementInput } from "./report-types";

/** Reporting physician selector and Generate Report (owned by the reports feature). */
export function ReportSettingsCard(_props: {
  worksheetId: number | null;
  scanType: string | null;
  measurements: StudyMeasurementInput[] | null;
  patient: { patientName: string; patientDob: string; examDate: string };
  onGenerated: (report: unknown) => void;
}) {
  return <p className="text-slate-700">Report generation is not available yet.</p>;
}
