import { AlertTriangle, CheckCircle2, FileUp } from "lucide-react";
import { useRef, useState } from "react";
import type { OcrResult } from "../../../../domain/contracts/ocr";
import { DICOM_SR_FIELD, type OcrResponse, SAME_PATIENT_FIELD } from "../../../../domain/contracts/worksheets";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { toast } from "../../components/ui/use-toast";
import { ApiError } from "../../lib/api";
import { handleUnauthorized } from "../../lib/session-expiry";
import { postFormWithProgress } from "./upload-request";
import { MAX_WORKSHEET_BYTES } from "./use-worksheet-upload";

type State =
  | { step: "idle" }
  | { step: "sending" }
  /** The SR names another patient than the sheet: the server's words, and the file to send again if confirmed. */
  | { step: "mismatch"; message: string; file: File }
  /** `name`: the file added now; null for one added before this visit. */
  | { step: "added"; name: string | null; result: OcrResult };

/** "GE Healthcare LOGIQ E10, study of 2020-08-18": who made the SR and when, as far as it says. */
export function machineSrOrigin(result: {
  machineSr?: { manufacturer: string | null; model: string | null; studyDate: string | null };
}): string | null {
  const sr = result.machineSr;
  if (!sr) return null;
  const device = [sr.manufacturer, sr.model].filter(Boolean).join(" ");
  const parts = [device || null, sr.studyDate ? `study of ${sr.studyDate}` : null].filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

/** "1 measurement from the structured report is in the table" */
function measurementsInTable(result: OcrResult): string {
  const n = result.machineSr?.measurements ?? 0;
  return n === 1
    ? "1 measurement from the structured report is in the table"
    : `${n} measurements from the structured report are in the table`;
}

/**
 * Beside a read worksheet: the ultrasound machine's DICOM SR of the same study (issue 28). Its measurements merge
 * into the checking table (the SR's win; the sheet's fill the rest). An SR of another patient is refused in the
 * server's words until the clinician says it is the same patient.
 */
export function MachineSrCard({
  worksheetId,
  added,
  onMerged,
}: {
  worksheetId: number;
  /** The worksheet's reading when an SR was added before (the worksheet opened again). */
  added: OcrResult | null;
  onMerged: (result: OcrResult) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>(() =>
    added ? { step: "added", name: null, result: added } : { step: "idle" },
  );

  async function send(file: File, samePatient: boolean) {
    if (file.size > MAX_WORKSHEET_BYTES) {
      toast({
        title: "File Too Large",
        description: `File size must be less than ${MAX_WORKSHEET_BYTES / (1024 * 1024)} MB`,
        variant: "destructive",
      });
      return;
    }
    setState({ step: "sending" });
    const form = new FormData();
    form.append(DICOM_SR_FIELD, file, file.name);
    if (samePatient) form.append(SAME_PATIENT_FIELD, "yes");
    try {
      const { ocrResult } = await postFormWithProgress<OcrResponse>(
        `/api/worksheets/${worksheetId}/dicom-sr`,
        form,
        () => {},
      ).promise;
      setState({ step: "added", name: file.name, result: ocrResult });
      onMerged(ocrResult);
      toast({
        title: "Structured Report Added",
        description: measurementsInTable(ocrResult),
        variant: "success",
      });
    } catch (error) {
      if (handleUnauthorized(error)) return;
      const message = error instanceof ApiError ? error.serverMessage : null;
      if (error instanceof ApiError && error.status === 409 && error.field === SAME_PATIENT_FIELD && message) {
        setState({ step: "mismatch", message, file });
        return;
      }
      setState({ step: "idle" });
      toast({
        title: "Structured Report Not Added",
        description: message ?? "The structured report could not be added. Please try again.",
        variant: "destructive",
      });
    }
  }

  const origin = state.step === "added" ? machineSrOrigin(state.result) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Machine's structured report</CardTitle>
        <p className="text-sm text-slate-700">
          Have the ultrasound machine's DICOM SR of this study? Add it: its measurements replace the values read from
          the worksheet where both have one, and the worksheet fills in the rest.
        </p>
      </CardHeader>
      <CardContent className="grid gap-3" aria-live="polite">
        {state.step === "added" ? (
          <p className="flex items-start gap-2 text-sm text-green-800">
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            <span>
              {state.name ? `Added ${state.name}` : "The structured report was added"}
              {origin ? ` (${origin})` : ""}: {measurementsInTable(state.result)}, marked DICOM SR.
            </span>
          </p>
        ) : state.step === "mismatch" ? (
          <div role="alert" className="grid gap-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            <p className="flex items-start gap-2">
              <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              {state.message}
            </p>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={() => setState({ step: "idle" })}>
                Don't add it
              </Button>
              <Button variant="destructive" onClick={() => void send(state.file, true)}>
                Same patient: add it anyway
              </Button>
            </div>
          </div>
        ) : (
          <div>
            <Button
              variant="outline"
              disabled={state.step === "sending"}
              onClick={() => input.current?.click()}
              className="w-full sm:w-auto"
            >
              <FileUp className="h-4 w-4" aria-hidden />
              {state.step === "sending" ? "Adding the structured report…" : "Add DICOM SR (.dcm)"}
            </Button>
            <input
              ref={input}
              type="file"
              accept=".dcm,application/dicom"
              className="hidden"
              aria-label="DICOM SR file"
              tabIndex={-1}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) void send(file, false);
              }}
            />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
