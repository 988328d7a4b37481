import { FileText, ImageOff } from "lucide-react";
import { useState } from "react";
import type { Report } from "../../../../domain/contracts/reports";
import { worksheetDetail } from "../../../../domain/contracts/worksheets";
import { useApiQuery } from "../../lib/api";
import { machineSrOrigin } from "../upload/machine-sr-card";

/** The images to try in order: the digital drawing first, then the uploaded worksheet (spec part 1). */
export function worksheetImageUrls(report: Pick<Report, "worksheetId" | "digitalWorksheetId">): string[] {
  return [
    report.digitalWorksheetId ? `/api/digital-worksheets/${report.digitalWorksheetId}/image` : null,
    report.worksheetId ? `/api/worksheets/${report.worksheetId}/image` : null,
  ].filter((u): u is string => u !== null);
}

/** The editor's left half: the worksheet image with the ids overlay. */
export function WorksheetPane({ report }: { report: Report }) {
  const urls = worksheetImageUrls(report);
  const key = urls.join("|");
  // Index of the image being tried for this report; an image that fails to load falls through to the next.
  const [attempt, setAttempt] = useState({ key, index: 0 });
  const index = attempt.key === key ? attempt.index : 0;
  const url = urls[index];
  // No image to show: an upload that was the machine's DICOM SR says so, with its device and study date.
  const { data: uploaded } = useApiQuery(["/api/worksheets", String(report.worksheetId)], worksheetDetail, {
    enabled: !url && report.worksheetId !== null,
  });
  const fromSr = uploaded?.kind === "dicom-sr";
  const origin = fromSr && uploaded.ocrResult ? machineSrOrigin(uploaded.ocrResult) : null;
  const ids = [
    report.digitalWorksheetId ? `Digital: #${report.digitalWorksheetId}` : null,
    report.worksheetId ? `Uploaded: #${report.worksheetId}` : null,
  ].filter(Boolean);
  return (
    <div className="relative flex h-full min-h-64 items-center justify-center overflow-auto rounded-md border border-slate-200 bg-slate-100">
      {url ? (
        <img
          key={url}
          src={url}
          alt={`Worksheet for report #${report.id}`}
          className="max-h-full max-w-full object-contain"
          onError={() => setAttempt({ key, index: index + 1 })}
        />
      ) : fromSr ? (
        <p className="flex max-w-sm items-start gap-2 p-6 text-sm text-slate-700">
          <FileText className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
          <span>
            The measurements came from the ultrasound machine's DICOM structured report
            {origin ? ` (${origin})` : ""}, not from a worksheet image.
          </span>
        </p>
      ) : (
        <p className="flex items-center gap-2 p-6 text-sm text-slate-700">
          <ImageOff className="h-5 w-5" aria-hidden />
          No worksheet image available
        </p>
      )}
      <p className="absolute left-2 top-2 rounded bg-slate-900/80 px-2 py-1 text-xs text-white">
        {ids.length ? ids.join(" / ") : "None"}
      </p>
    </div>
  );
}
