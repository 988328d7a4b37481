import type { VersionArchive } from "../../../../domain/contracts/reports";
import { formatDateTime } from "./report-api";

/**
 * A signed version's PDF/A archive copy (decision 026), made by a job after the signature: a link to the stored
 * copy, or that it is being made, or the last attempt's error and when it is tried again.
 */
export function VersionArchiveLine({ archive }: { archive: VersionArchive }) {
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
