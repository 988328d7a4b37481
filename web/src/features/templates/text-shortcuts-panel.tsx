/** The Text Shortcuts panel (owned by the templates feature); onInsert given => Insert buttons, else Copy. */
export function TextShortcutsPanel(_props: { onInsert?: (text: string) => void }) {
  return <p className="text-slate-700">Text shortcuts are not available yet.</p>;
}
