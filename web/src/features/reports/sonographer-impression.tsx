import { MessageSquareQuote } from "lucide-react";
import { useId } from "react";
import { Textarea } from "../../components/ui/input";

/**
 * The sonographer's comments from the worksheet, shown beside the draft as their preliminary impression. They
 * are never copied into the report: the physician writes the Impression and may take from them what they agree with.
 */
export function SonographerImpression({
  comments,
  onChange,
}: {
  comments: string;
  /** Given on the upload screen, where the comments read by OCR are checked before generating. */
  onChange?: (comments: string) => void;
}) {
  const id = useId();
  if (!onChange && !comments.trim()) return null;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="grid gap-2 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-slate-900"
    >
      <h3 id={`${id}-title`} className="flex items-center gap-2 font-semibold text-sky-950">
        <MessageSquareQuote className="h-4 w-4" aria-hidden />
        Sonographer's preliminary impression
      </h3>
      <p id={`${id}-note`} className="text-xs text-slate-700">
        From the worksheet. Not part of the report: the Impression is the physician's own.
      </p>
      {onChange ? (
        <Textarea
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-note`}
          rows={3}
          value={comments}
          placeholder="No comments on the worksheet"
          onChange={(e) => onChange(e.target.value)}
          className="bg-white"
        />
      ) : (
        <p className="whitespace-pre-wrap leading-relaxed">{comments}</p>
      )}
    </section>
  );
}
