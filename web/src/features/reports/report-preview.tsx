/** The Report Preview card of the Upload view (owned by the reports feature). */
export function ReportPreview(_props: { report: unknown; onChange: (report: unknown) => void }) {
  return <p className="text-slate-700">Report preview is not available yet.</p>;
}
