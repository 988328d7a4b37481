import type { ReportTemplateForm } from "../../../../domain/contracts/templates";
import { cn } from "../../lib/cn";

/** Sample values only: the preview must never show a real patient. */
const SAMPLE = {
  patient: [
    ["Patient Name", "Sample Patient"],
    ["Date of Birth", "01/01/1960"],
    ["Exam Date", "03/15/2025"],
  ],
  studyType: "Lower Limb Venous Duplex",
  indication: "Left calf swelling and pain.",
  findings: "The common femoral, femoral and popliteal veins are compressible with normal flow.",
  impression: "No evidence of deep vein thrombosis in the left lower limb.",
};

const signatureAlign = {
  left: "items-start text-left",
  center: "items-center text-center",
  right: "items-end text-right",
};

/** A live, scaled-down picture of what a report laid out with these settings looks like. */
export function ReportTemplatePreview({ values }: { values: ReportTemplateForm }) {
  const patient = values.showPatientId ? [...SAMPLE.patient, ["Patient ID", "MRN-000123"]] : SAMPLE.patient;
  const sections = [
    values.showStudyType && ["Study Type", SAMPLE.studyType],
    values.showIndication && ["Indication", SAMPLE.indication],
    values.showFindings && ["Findings", SAMPLE.findings],
    values.showImpression && ["Impression", SAMPLE.impression],
  ].filter((s): s is string[] => Boolean(s));
  return (
    <figure aria-label="Layout preview" className="rounded-lg border border-slate-300 bg-slate-100 p-3">
      <figcaption className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-700">Live preview</figcaption>
      <div
        data-testid="template-preview"
        className="space-y-3 rounded bg-white p-4 text-slate-900 shadow-sm"
        style={{ fontFamily: `"${values.fontFamily}", sans-serif`, fontSize: values.fontSize }}
      >
        {values.showHeader ? (
          <header className="flex items-start gap-3 border-b-2 pb-2" style={{ borderColor: values.primaryColor }}>
            {values.showLogo ? (
              <div
                className="flex h-10 w-10 shrink-0 items-center justify-center rounded border border-dashed border-slate-400 text-[10px] text-slate-700"
                aria-label="Logo placeholder"
                role="img"
              >
                Logo
              </div>
            ) : null}
            <div className="min-w-0">
              <div className="font-bold" style={{ color: values.primaryColor, fontSize: "1.25em" }}>
                {values.clinicName.trim() || "Your Clinic Name"}
              </div>
              {values.clinicAddress.trim() ? <div className="text-slate-700">{values.clinicAddress}</div> : null}
              {values.clinicPhone.trim() ? <div className="text-slate-700">{values.clinicPhone}</div> : null}
            </div>
          </header>
        ) : null}
        <div className="font-semibold" style={{ color: values.primaryColor }}>
          Vascular Ultrasound Report
        </div>
        <PatientBlock layout={values.patientInfoLayout} rows={patient} />
        {sections.map(([title, text]) => (
          <section key={title}>
            <h4 className="font-semibold" style={{ color: values.primaryColor }}>
              {title}
            </h4>
            <p className="text-slate-800">{text}</p>
          </section>
        ))}
        {values.showSignature ? (
          <div
            data-testid="preview-signature"
            className={cn("flex flex-col pt-2", signatureAlign[values.signaturePosition])}
          >
            <div className="w-32 border-b border-slate-700" />
            <div className="text-slate-800">Dr. Sample Physician</div>
            <div className="text-slate-700" style={{ fontSize: "0.85em" }}>
              Electronically signed
            </div>
          </div>
        ) : null}
        {values.showFooter ? (
          <footer className="border-t border-slate-300 pt-2 text-slate-700" style={{ fontSize: "0.85em" }}>
            {values.footerText.trim() ? <div>{values.footerText}</div> : null}
            <div className="flex flex-wrap justify-between gap-2">
              {values.showReportId ? <span>Report ID: 1024</span> : null}
              {values.showGenerationDate ? <span>Generated: 03/15/2025</span> : null}
            </div>
          </footer>
        ) : null}
      </div>
    </figure>
  );
}

function PatientBlock({ layout, rows }: { layout: ReportTemplateForm["patientInfoLayout"]; rows: string[][] }) {
  if (layout === "compact") {
    return <p data-testid="preview-patient-compact">{rows.map(([k, v]) => `${k}: ${v}`).join(" | ")}</p>;
  }
  return (
    <dl
      data-testid={`preview-patient-${layout}`}
      className={cn(layout === "grid" ? "grid grid-cols-2 gap-x-4 gap-y-1" : "space-y-0.5")}
    >
      {rows.map(([k, v]) => (
        <div key={k} className={layout === "list" ? "flex gap-2" : undefined}>
          <dt className="inline font-semibold">{k}:</dt> <dd className="inline">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
