import { BadgeCheck } from "lucide-react";
import type { ClinicInfo } from "../../../../domain/contracts/clinic";
import type { Report } from "../../../../domain/contracts/reports";
import { signatureLine } from "../../../../domain/signing";
import { formatDate, formatDateTime } from "./report-api";

const DEFAULT_CLINIC_NAME = "Medical Clinic";
const DEFAULT_SPECIALTY = "Radiologist";

function Section({ title, children }: { title: string; children: string }) {
  return (
    <section className="grid gap-1">
      <h4 className="text-sm font-semibold uppercase tracking-wide text-brand-800">{title}</h4>
      <p className="whitespace-pre-wrap text-sm leading-relaxed text-slate-800">{children}</p>
    </section>
  );
}

/** The worksheet's header fields the report has, in the order the patient block shows them. */
function headerRows(report: Report): Array<[string, string]> {
  const rows: Array<[string, string | null]> = [
    ["MRN", report.mrn],
    ["Referring Physician", report.referringPhysician],
    ["Sonographer", report.sonographerName],
  ];
  return rows.filter((row): row is [string, string] => Boolean(row[1]));
}

/** The report as it reads on paper: header, patient block, sections, signature block. */
export function ReportDocument({ report, clinic }: { report: Report; clinic: ClinicInfo | undefined }) {
  const physician = report.physician;
  const logoUrl = clinic?.logoUrl ?? report.logoUrl;
  return (
    <article className="grid gap-5 rounded-md border border-slate-200 bg-white p-5 text-slate-900" aria-label="Report">
      {/* A long clinic name wraps (anywhere, when it has no spaces): the whole name is read, none of it cut. */}
      <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b-2 border-brand-600 pb-3">
        <div className="flex min-w-0 flex-[1_1_16rem] items-center gap-3">
          {logoUrl ? <img src={logoUrl} alt="Clinic logo" className="h-12 w-auto max-w-32 object-contain" /> : null}
          <div className="min-w-0">
            <h3 className="text-lg font-semibold text-slate-900 [overflow-wrap:anywhere]">
              {clinic?.name || DEFAULT_CLINIC_NAME}
            </h3>
            <p className="text-sm text-slate-700">Vascular Ultrasound Report</p>
          </div>
        </div>
        <p className="shrink-0 text-sm text-slate-700">Report #{report.id}</p>
      </header>

      <dl className="grid gap-x-6 gap-y-2 rounded-md bg-slate-50 p-3 text-sm [overflow-wrap:anywhere] sm:grid-cols-3">
        <div>
          <dt className="text-slate-700">Patient</dt>
          <dd className="font-medium">{report.patientName || "Not recorded"}</dd>
        </div>
        <div>
          <dt className="text-slate-700">Date of Birth</dt>
          <dd className="font-medium">{formatDate(report.patientDob)}</dd>
        </div>
        <div>
          <dt className="text-slate-700">Exam Date</dt>
          <dd className="font-medium">{formatDate(report.examDate)}</dd>
        </div>
        {headerRows(report).map(([label, value]) => (
          <div key={label}>
            <dt className="text-slate-700">{label}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>

      <section className="grid gap-1">
        <h4 className="text-sm font-semibold uppercase tracking-wide text-brand-800">Study Type</h4>
        <p className="text-sm font-medium">{report.studyType}</p>
      </section>
      <Section title="Indication">{report.indication}</Section>
      <Section title="Findings">{report.findings}</Section>
      <Section title="Impression">{report.impression}</Section>

      {report.isFinalized && report.finalizedAt ? (
        <p className="flex items-start gap-2 rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-950">
          <BadgeCheck className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {report.finalizedOnBehalf && report.finalizedByName && report.physician ? (
            <span>
              {signatureLine(report.finalizedByName, report.physician.name, true)}, electronically, on{" "}
              {formatDateTime(report.finalizedAt)}
            </span>
          ) : (
            <span>
              Electronically signed{report.finalizedByName ? ` by ${report.finalizedByName}` : ""} on{" "}
              {formatDateTime(report.finalizedAt)}
            </span>
          )}
        </p>
      ) : null}
      {report.isAmended && report.amendedAt ? (
        <p className="text-sm text-slate-700">
          Amended on {formatDateTime(report.amendedAt)}
          {report.amendmentReason ? `: ${report.amendmentReason}` : ""}
        </p>
      ) : null}

      <footer className="flex justify-end border-t border-slate-200 pt-4">
        <div className="grid justify-items-end gap-1 text-right text-sm" data-testid="signature-block">
          {physician?.signatureUrl ? (
            <img
              src={physician.signatureUrl}
              alt={`Signature of ${physician.name}`}
              className="h-14 w-auto max-w-48 object-contain"
            />
          ) : (
            <div className="h-10 w-48 border-b border-slate-400" aria-hidden />
          )}
          <p className="font-semibold">{physician?.name ?? "Reporting physician not selected"}</p>
          {physician?.title ? <p className="text-slate-700">{physician.title}</p> : null}
          <p className="text-slate-700">{physician?.specialty || DEFAULT_SPECIALTY}</p>
        </div>
      </footer>
    </article>
  );
}
