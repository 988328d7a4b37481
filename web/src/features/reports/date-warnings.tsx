import { AlertTriangle } from "lucide-react";
import { dateWarnings, localIsoDate } from "../../../../domain/dates";

/**
 * Dates that cannot be right (born after the exam, an exam in the future, an age over 120), said where the
 * dates are entered. Nothing is shown while the dates are plausible or missing.
 */
export function DateWarnings({
  patientDob,
  examDate,
  id,
}: {
  patientDob: string | null | undefined;
  examDate: string | null | undefined;
  id?: string;
}) {
  const warnings = dateWarnings({ patientDob, examDate }, localIsoDate());
  return (
    // Always rendered, so that a warning appearing while the clinician types is announced.
    <div id={id} role="status" aria-live="polite">
      {warnings.length > 0 ? (
        <div className="flex gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <div>
            <p className="font-medium">Check the dates: they cannot all be right.</p>
            <ul className="mt-1 list-disc pl-4">
              {warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** Whether the dates need the clinician's confirmation before finalizing (the server asks the same). */
export const needsDateConfirmation = (dates: { patientDob: string | null; examDate: string | null }) =>
  dateWarnings(dates, localIsoDate()).length > 0;
