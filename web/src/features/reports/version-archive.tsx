import type { VersionArchive } from "../../../../domain/contracts/reports";
import { formatDateTime } from "./report-api";

/**
 * A signed version's PDF/A archive copy (decision 026), made by a job after the signature: a link to the stored
 * copy, or that it is being made, or the last attempt's error and when it is tried again. A signed version with
 * none on record was signed before copies were kept as jobs, and its copy then failed: said so, not left blank.
 */
export function VersionArchiveLine({ archive }: { archive: VersionArchive | null }) {
  if (!archive) return <p className="text-slate-700">No archive copy (PDF/A) is on record for this version.</p>;
  if (archive.status === "archived" && archive.fileId !== null) {
    return (
      <p className="text-slate-700">
        Archive copy (PDF/A) stored{archive.archivedAt ? ` ${formatDateTime(archive.archivedAt)}` : ""}.{" "}
        <a className="font-medium text-blue-800 underline" href={`/api/files/${archive.fileId}`} download>
          Download the archive copy
        </a>
      </p>
    );
  }
  if (!archive.lastError) return <p className="text-slate-700">Archive copy (PDF/A) being made.</p>;
  return (
    <p className="text-red-800" role="status">
      Archive copy (PDF/A) not made yet: {archive.attempts} attempt{archive.attempts === 1 ? "" : "s"} failed (
      {archive.lastError}).
      {archive.nextAttemptAt ? ` Tried again ${formatDateTime(archive.nextAttemptAt)}.` : ""}
    </p>
  );
}
