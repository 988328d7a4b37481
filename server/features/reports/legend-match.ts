/** The clearly labelled sentence appended to the findings; the clinician can see where it came from. */
export function legendNotes(entries: readonly { title: string; medicalMeaning: string }[]): string {
  if (entries.length === 0) return "";
  const notes = entries.map((e) => `${e.title.trim()}: ${e.medicalMeaning.trim().replace(/[.\s]+$/, "")}`);
  return `Legend notes: ${notes.join("; ")}.`;
}
