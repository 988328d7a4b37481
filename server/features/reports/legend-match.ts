export type LegendEntry = { title: string; medicalMeaning: string; keywords: string | null };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The active legend entries whose keywords (comma separated) occur in the text as whole words, ignoring
 * case: "DVT" matches "no dvt seen" but not "dvts". Entries without keywords never match.
 */
export function matchLegendEntries<E extends LegendEntry>(entries: readonly E[], text: string): E[] {
  if (!text.trim()) return [];
  return entries.filter((entry) =>
    (entry.keywords ?? "")
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean)
      .some((keyword) =>
        new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(keyword).replace(/\s+/g, "\\s+")}(?![\\p{L}\\p{N}])`, "iu").test(
          text,
        ),
      ),
  );
}

/** The clearly labelled sentence appended to the findings; the clinician can see where it came from. */
export function legendNotes(entries: readonly LegendEntry[]): string {
  if (entries.length === 0) return "";
  const notes = entries.map((e) => `${e.title.trim()}: ${e.medicalMeaning.trim().replace(/[.\s]+$/, "")}`);
  return `Legend notes: ${notes.join("; ")}.`;
}
