import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import {
  type Destination,
  type DestinationCreate,
  type DestinationForm,
  destination,
  destinationForm,
  destinationKindLabels,
  destinationKinds,
} from "../../../../domain/contracts/delivery";
import { DeleteButton } from "../../components/ui/action-buttons";
import { Button } from "../../components/ui/button";
import { Badge, Card, CardContent, CardHeader, CardTitle, Spinner } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/dialog";
import { Input, Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { ApiError, api, apiRequest, errorMessage, useApiQuery } from "../../lib/api";
import { queryClient } from "../../lib/query-client";

const KEY = ["/api/delivery-destinations"];
const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });

const where = (d: Destination) => (d.kind === "fhir" ? (d.url ?? "") : `${d.host ?? ""}:${d.port ?? ""}`);

/**
 * Where the clinic's signed reports are sent (admins): FHIR servers and HL7 v2 listeners over MLLP (issue 28).
 * Every signature, first or of an amendment, is sent to each destination that is on, with retries.
 */
export function DeliveryDestinationsCard() {
  const destinations = useApiQuery(KEY, z.array(destination));
  const [deleting, setDeleting] = useState<Destination | null>(null);
  const toggle = useMutation({
    mutationFn: (d: Destination) =>
      api.send("PATCH", `/api/delivery-destinations/${d.id}`, { enabled: !d.enabled }, destination),
    onSuccess: refresh,
    onError: (err) =>
      toast({
        title: "Error",
        description: errorMessage(err, "Failed to change the destination"),
        variant: "destructive",
      }),
  });
  const remove = useMutation({
    mutationFn: (d: Destination) => apiRequest("DELETE", `/api/delivery-destinations/${d.id}`),
    onSuccess: () => {
      refresh();
      toast({ title: "Success", description: "Destination removed", variant: "success" });
    },
    onError: (err) =>
      toast({
        title: "Error",
        description: errorMessage(err, "Failed to remove the destination"),
        variant: "destructive",
      }),
  });

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Sending Reports to Other Systems</CardTitle>
        <p className="text-sm text-slate-700">
          Every signed report, and every signed amendment, is sent to each destination that is on: a FHIR server
          receives a transaction Bundle with the PDF, an HL7 v2 listener an ORU^R01 message over MLLP. Failed sends are
          tried again with growing waits; each report's History shows what was delivered.
        </p>
      </CardHeader>
      <CardContent className="grid gap-6">
        {destinations.isLoading ? (
          <Spinner label="Loading destinations..." />
        ) : destinations.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(destinations.error, "Failed to load the destinations")}
          </p>
        ) : (destinations.data ?? []).length === 0 ? (
          <p className="text-sm text-slate-700">No destinations yet: signed reports stay in Sonoscribe.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Destinations">
            {(destinations.data ?? []).map((d) => (
              <li
                key={d.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-slate-200 p-3 text-sm"
              >
                <div className="grid gap-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold text-slate-900">{d.name}</span>
                    <span className="text-slate-700">{destinationKindLabels[d.kind]}</span>
                    <Badge tone={d.enabled ? "green" : "neutral"}>{d.enabled ? "On" : "Off"}</Badge>
                  </div>
                  <span className="text-slate-700">
                    <span className="break-all">{where(d)}</span>
                    {d.kind === "fhir" ? (
                      <span className="whitespace-nowrap">{d.hasToken ? " (token set)" : " (no token)"}</span>
                    ) : null}
                  </span>
                </div>
                <div className="flex gap-2">
                  <Button variant="outline" size="sm" disabled={toggle.isPending} onClick={() => toggle.mutate(d)}>
                    {d.enabled ? `Turn off` : `Turn on`}
                    <span className="sr-only"> {d.name}</span>
                  </Button>
                  <DeleteButton name={d.name} onClick={() => setDeleting(d)} />
                </div>
              </li>
            ))}
          </ul>
        )}
        <AddDestinationForm />
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Remove this destination?"
        description="Reports will no longer be sent there, and its delivery list is removed from the reports (the audit trail keeps what was delivered)."
        confirmLabel="Remove"
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </Card>
  );
}

const formFields = ["name", "url", "token", "host", "port"] as const;

function AddDestinationForm() {
  const id = useId();
  const form = useForm<DestinationForm, unknown, DestinationCreate>({
    resolver: zodResolver(destinationForm),
    defaultValues: { kind: "fhir", name: "", url: "", token: "", host: "", port: "2575" },
  });
  const kind = useWatch({ control: form.control, name: "kind" });
  const add = useMutation({
    mutationFn: (body: DestinationCreate) => api.send("POST", "/api/delivery-destinations", body, destination),
    onSuccess: () => {
      refresh();
      form.reset({ ...form.getValues(), name: "", url: "", token: "", host: "" });
      toast({ title: "Success", description: "Destination added", variant: "success" });
    },
    onError: (err) => {
      const field = formFields.find((name) => err instanceof ApiError && err.field === name);
      form.setError(field ?? "root", { message: errorMessage(err, "Failed to add the destination") });
    },
  });
  // One message at a time, as the server gives them: the first field in the form's order that is wrong.
  const { errors } = form.formState;
  const field = formFields.find((name) => errors[name]);
  const problem = field ? { text: errors[field]?.message, field } : errors.root ? { text: errors.root.message } : null;
  const errorId = `${id}-error`;
  const invalid = (name: string) =>
    problem?.field === name ? { "aria-invalid": true, "aria-describedby": errorId } : {};

  return (
    <form
      className="grid gap-4 rounded-md border border-slate-200 p-4"
      aria-label="Add a destination"
      noValidate
      onSubmit={form.handleSubmit((body) => add.mutate(body))}
    >
      <h3 className="text-base font-semibold text-slate-900">Add a destination</h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-kind`}>Kind</Label>
          <Select id={`${id}-kind`} {...form.register("kind")}>
            {destinationKinds.map((k) => (
              <option key={k} value={k}>
                {destinationKindLabels[k]}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-name`}>Name *</Label>
          <Input
            id={`${id}-name`}
            maxLength={120}
            {...form.register("name")}
            placeholder="Regional hospital"
            {...invalid("name")}
          />
        </div>
      </div>
      {kind === "fhir" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-url`}>FHIR base address *</Label>
            <Input
              id={`${id}-url`}
              type="url"
              maxLength={500}
              placeholder="https://fhir.hospital.example/r4"
              {...form.register("url")}
              {...invalid("url")}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-token`}>Bearer token</Label>
            <Input
              id={`${id}-token`}
              type="password"
              autoComplete="off"
              maxLength={4000}
              {...form.register("token")}
              aria-describedby={`${id}-token-note`}
            />
            <p id={`${id}-token-note`} className="text-xs text-slate-700">
              Stored encrypted and never shown again.
            </p>
          </div>
        </div>
      ) : (
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-host`}>Host *</Label>
            <Input
              id={`${id}-host`}
              maxLength={255}
              placeholder="ris.hospital.example"
              {...form.register("host")}
              {...invalid("host")}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-port`}>Port *</Label>
            <Input
              id={`${id}-port`}
              type="number"
              inputMode="numeric"
              min={1}
              max={65535}
              {...form.register("port")}
              {...invalid("port")}
            />
          </div>
        </div>
      )}
      {problem ? (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {problem.text}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? "Adding..." : "Add Destination"}
        </Button>
      </div>
    </form>
  );
}
