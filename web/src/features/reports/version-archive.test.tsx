import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { VersionArchiveLine } from "./version-archive";

const archived = {
  status: "archived" as const,
  fileId: 12,
  sha256: "a".repeat(64),
  attempts: 1,
  lastError: null,
  nextAttemptAt: null,
  archivedAt: "2026-11-03T09:31:00Z",
};

describe("a signed version's archive line", () => {
  it("links a stored copy", () => {
    const html = renderToStaticMarkup(<VersionArchiveLine archive={archived} />);
    expect(html).toContain("Archive copy (PDF/A) stored");
    expect(html).toContain('href="/api/files/12"');
  });

  it("says so when no copy is on record, instead of showing nothing", () => {
    expect(renderToStaticMarkup(<VersionArchiveLine archive={null} />)).toContain(
      "No archive copy (PDF/A) is on record for this version.",
    );
  });
});
