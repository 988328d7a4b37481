import { zodResolver } from "@hookform/resolvers/zod";
import { PenLine, Trash2, Upload } from "lucide-react";
import { useId, useRef, useState } from "react";
import { type FieldErrors, useForm } from "react-hook-form";
import type { z } from "zod";
import {
  PHYSICIAN_NAME_REQUIRED,
  type Physician,
  type PhysicianCreate,
  physicianCreate,
} from "../../../../domain/contracts/physicians";
import { Button } from "../../components/ui/button";
import { FieldError, Input, Label } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { cn } from "../../lib/cn";
import { SignaturePad, type SignaturePadHandle } from "./signature-pad";
import { imageFileProblem } from "./upload-image";

/** The checked fields; signatureUrl is the signature to keep (the current URL), or null to remove it. */
type PhysicianFields = z.output<typeof physicianCreate>;

export type PhysicianFormValues = PhysicianFields & {
  /** A new signature to upload first (chosen file or drawn PNG), replacing signatureUrl. */
  newSignature: { blob: Blob; name: string } | null;
};

type SignatureMode = "upload" | "draw";

/** Add or edit one physician; the signature can be kept, removed, uploaded as an image or drawn. */
export function PhysicianForm({
  physician,
  pending,
  onSubmit,
}: {
  physician: Physician | null;
  pending: boolean;
  onSubmit: (values: PhysicianFormValues) => void;
}) {
  const ids = useId();
  // The server's create contract: the same required name (and its text) and lengths.
  const form = useForm<PhysicianCreate, unknown, PhysicianFields>({
    resolver: zodResolver(physicianCreate),
    defaultValues: {
      name: physician?.name ?? "",
      title: physician?.title ?? "",
      specialty: physician?.specialty ?? "",
      signatureUrl: physician?.signatureUrl ?? null,
    },
  });
  const nameError = form.formState.errors.name?.message;
  const [name, signatureUrl] = form.watch(["name", "signatureUrl"]);
  // The new signature is a file or a drawing, not a form value: it is uploaded first when saving.
  const [mode, setMode] = useState<SignatureMode>("upload");
  const [file, setFile] = useState<File | null>(null);
  const pad = useRef<SignaturePadHandle>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const chooseFile = (chosen: File | undefined) => {
    if (!chosen) return setFile(null);
    const problem = imageFileProblem(chosen);
    if (problem) {
      toast({ ...problem, variant: "destructive" });
      if (fileInput.current) fileInput.current.value = "";
      return setFile(null);
    }
    setFile(chosen);
  };

  const submit = async (values: PhysicianFields) => {
    let newSignature: PhysicianFormValues["newSignature"] = null;
    if (mode === "upload" && file) newSignature = { blob: file, name: file.name };
    if (mode === "draw") {
      const drawn = await pad.current?.toPng();
      if (drawn) newSignature = { blob: drawn, name: "signature.png" };
    }
    onSubmit({ ...values, newSignature });
  };

  const refused = (found: FieldErrors<PhysicianCreate>) => {
    const first = found.name ?? found.title ?? found.specialty ?? found.signatureUrl;
    toast({
      title: "Validation Error",
      description: first?.message ?? PHYSICIAN_NAME_REQUIRED,
      variant: "destructive",
    });
  };

  const modeButton = (value: SignatureMode, label: string, Icon: typeof Upload) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => setMode(value)}
      className={cn(
        "flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium",
        mode === value ? "bg-white text-slate-900 shadow-sm" : "text-slate-700 hover:text-slate-900",
      )}
    >
      <Icon className="h-4 w-4" aria-hidden />
      {label}
    </button>
  );

  return (
    <form className="flex flex-col gap-4" onSubmit={form.handleSubmit(submit, refused)} noValidate>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${ids}-name`}>Name *</Label>
        <Input
          id={`${ids}-name`}
          {...form.register("name")}
          placeholder="Dr. Jane Smith"
          maxLength={255}
          aria-invalid={Boolean(nameError)}
          aria-describedby={nameError ? `${ids}-name-error` : undefined}
          autoFocus
        />
        <FieldError id={`${ids}-name-error`}>{nameError}</FieldError>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${ids}-title`}>Title</Label>
          <Input id={`${ids}-title`} {...form.register("title")} placeholder="MD, RPVI" maxLength={255} />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${ids}-specialty`}>Specialty</Label>
          <Input
            id={`${ids}-specialty`}
            {...form.register("specialty")}
            placeholder="Vascular Surgery"
            maxLength={255}
          />
        </div>
      </div>

      <fieldset className="flex flex-col gap-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-medium text-slate-800">Signature</legend>
        {signatureUrl ? (
          <div className="flex flex-wrap items-center gap-3">
            <img
              src={signatureUrl}
              alt={`Current signature of ${name || "the physician"}`}
              className="h-16 max-w-[240px] rounded border border-slate-200 bg-white object-contain"
            />
            <Button variant="outline" size="sm" onClick={() => form.setValue("signatureUrl", null)}>
              <Trash2 className="h-4 w-4" aria-hidden />
              Remove signature
            </Button>
            <p className="w-full text-xs text-slate-700">Upload or draw below to replace it.</p>
          </div>
        ) : null}
        <div className="inline-flex w-fit gap-1 rounded-lg bg-slate-200/70 p-1">
          {modeButton("upload", "Upload image", Upload)}
          {modeButton("draw", "Draw", PenLine)}
        </div>
        {mode === "upload" ? (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${ids}-file`}>Signature image</Label>
            <input
              ref={fileInput}
              id={`${ids}-file`}
              type="file"
              accept="image/*"
              onChange={(e) => chooseFile(e.target.files?.[0])}
              className="text-sm text-slate-800 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-100"
            />
            <p className="text-xs text-slate-700">PNG, JPEG, GIF or WebP, up to 10 MB.</p>
          </div>
        ) : (
          <SignaturePad ref={pad} />
        )}
      </fieldset>

      <div className="flex justify-end gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving..." : physician ? "Update Physician" : "Add Physician"}
        </Button>
      </div>
    </form>
  );
}
