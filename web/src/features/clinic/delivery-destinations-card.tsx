import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { z } from "zod";
import {
  type Destination,
  type DestinationKind,
  destination,
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

function AddDestinationForm() {
  const id = useId();
  const [kind, setKind] = useState<DestinationKind>("fhir");
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [token, setToken] = useState("");
  const [host, setHost] = useState("");
  const [port, setPort] = useState("2575");
  const [problem, setProblem] = useState<{ text: string; field?: string } | null>(null);
  const add = useMutation({
    mutationFn: () =>
      api.send(
        "POST",
        "/api/delivery-destinations",
        kind === "fhir"
          ? { kind, name, url, ...(token.trim() ? { token } : {}) }
          : { kind, name, host, port: Number(port) },
        destination,
      ),
    onSuccess: () => {
      refresh();
      setName("");
      setUrl("");
      setToken("");
      setHost("");
      setProblem(null);
      toast({ title: "Success", description: "Destination added", variant: "success" });
    },
    onError: (err) => {
      let field: string | undefined;
      try {
        field = err instanceof ApiError ? (JSON.parse(err.bodyText) as { field?: string }).field : undefined;
      } catch {
        field = undefined;
      }
      setProblem({ text: errorMessage(err, "Failed to add the destination"), field });
    },
  });
  const errorId = `${id}-error`;
  const invalid = (field: string) =>
    problem?.field === field ? { "aria-invalid": true, "aria-describedby": errorId } : {};

  return (
    <form
      className="grid gap-4 rounded-md border border-slate-200 p-4"
      aria-label="Add a destination"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <h3 className="text-base font-semibold text-slate-900">Add a destination</h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-kind`}>Kind</Label>
          <Select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as DestinationKind)}>
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
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.target.value)}
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
              value={url}
              maxLength={500}
              placeholder="https://fhir.hospital.example/r4"
              onChange={(e) => setUrl(e.target.value)}
              {...invalid("url")}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-token`}>Bearer token</Label>
            <Input
              id={`${id}-token`}
              type="password"
              autoComplete="off"
              value={token}
              maxLength={4000}
              onChange={(e) => setToken(e.target.value)}
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
              value={host}
              maxLength={255}
              placeholder="ris.hospital.example"
              onChange={(e) => setHost(e.target.value)}
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
              value={port}
              onChange={(e) => setPort(e.target.value)}
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
