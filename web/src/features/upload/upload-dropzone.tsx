import { FileUp } from "lucide-react";
import { type DragEvent, useRef, useState } from "react";
import { cn } from "../../lib/cn";

/**
 * Drag and drop or click to browse. The whole area is one button, so it is reached with Tab and opened with
 * Enter or Space like any other control; the file input itself stays hidden. Several files at once go to
 * `onFiles` (a batch read in the background), one to `onFile`.
 */
export function UploadDropzone({
  accept,
  maxMegabytes,
  disabled,
  onFile,
  onFiles,
}: {
  accept: string;
  maxMegabytes: number;
  disabled?: boolean;
  onFile: (file: File) => void;
  onFiles?: (files: File[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) take(Array.from(event.dataTransfer.files));
  };
  const take = (files: File[]) => {
    if (files.length > 1 && onFiles) onFiles(files);
    else if (files[0]) onFile(files[0]);
  };

  return (
    <div>
      <button
        type="button"
        disabled={disabled}
        onClick={() => input.current?.click()}
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        aria-describedby="worksheet-types"
        className={cn(
          "flex w-full flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-8 text-center transition-colors disabled:cursor-not-allowed disabled:opacity-60",
          dragging ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-slate-50 hover:border-brand-600",
        )}
      >
        <FileUp className="h-8 w-8 text-brand-600" aria-hidden />
        <span className="font-medium text-slate-900">Drop your worksheet here, or click to browse</span>
        <span id="worksheet-types" className="text-sm text-slate-700">
          JPG, PNG, GIF, WebP, PDF, or the ultrasound machine's DICOM SR (.dcm), up to {maxMegabytes} MB
          {onFiles ? ". Several at once are read in the background." : null}
        </span>
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple={Boolean(onFiles)}
        className="hidden"
        aria-label="Worksheet file"
        tabIndex={-1}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Cleared so that choosing the same file again still uploads it.
          event.target.value = "";
          take(files);
        }}
      />
    </div>
  );
}
