import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { INITIALS_MAX, type Sonographer, sonographerInput } from "../../../../domain/contracts/sonographers";
import { Button } from "../../components/ui/button";
import { FieldError, Input, Label } from "../../components/ui/input";

export type SonographerValues = z.output<typeof sonographerInput>;

/** The add/edit form of one sonographer (shown in the Sonographers tab's dialog). */
export function SonographerForm({
  sonographer,
  pending,
  onSubmit,
}: {
  sonographer: Sonographer | null;
  pending: boolean;
  onSubmit: (values: SonographerValues) => void;
}) {
  const ids = useId();
  // The same schema as the server: the same required fields, lengths and upper-cased initials.
  const form = useForm<z.input<typeof sonographerInput>, unknown, SonographerValues>({
    resolver: zodResolver(sonographerInput),
    defaultValues: {
      name: sonographer?.name ?? "",
      initials: sonographer?.initials ?? "",
      title: sonographer?.title ?? "",
      department: sonographer?.department ?? "",
    },
  });
  const { errors } = form.formState;
  const initials = form.register("initials");

  const field = (name: "name" | "title" | "department", label: string, max: number, placeholder: string) => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`${ids}-${name}`}>{label}</Label>
      <Input
        id={`${ids}-${name}`}
        maxLength={max}
        placeholder={placeholder}
        aria-invalid={Boolean(errors[name])}
        aria-describedby={errors[name] ? `${ids}-${name}-error` : undefined}
        {...form.register(name)}
      />
      <FieldError id={`${ids}-${name}-error`}>{errors[name]?.message}</FieldError>
    </div>
  );

  return (
    <form className="flex flex-col gap-4" onSubmit={form.handleSubmit(onSubmit)} noValidate>
      {field("name", "Name *", 255, "Jordan Lee")}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${ids}-initials`}>Initials *</Label>
        <Input
          id={`${ids}-initials`}
          maxLength={INITIALS_MAX}
          placeholder="JL"
          autoCapitalize="characters"
          className="uppercase"
          aria-invalid={Boolean(errors.initials)}
          aria-describedby={errors.initials ? `${ids}-initials-error` : `${ids}-initials-hint`}
          {...initials}
          onChange={(e) => {
            e.target.value = e.target.value.toUpperCase();
            return initials.onChange(e);
          }}
        />
        <p id={`${ids}-initials-hint`} className="text-xs text-slate-700">
          Up to {INITIALS_MAX} letters, in capitals.
        </p>
        <FieldError id={`${ids}-initials-error`}>{errors.initials?.message}</FieldError>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {field("title", "Title", 100, "RVT")}
        {field("department", "Department", 100, "Vascular Lab")}
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving..." : sonographer ? "Update Sonographer" : "Add Sonographer"}
        </Button>
      </div>
    </form>
  );
}
