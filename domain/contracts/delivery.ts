import { z } from "zod";

/**
 * Destinations a clinic's signed reports are sent to, and the deliveries of one report (issue 28,
 * docs/decisions/019-report-delivery.md). The bearer token goes in, never out: answers say only whether one is set.
 */

export const destinationKinds = ["fhir", "mllp"] as const;
export type DestinationKind = (typeof destinationKinds)[number];
export const destinationKindLabels: Record<DestinationKind, string> = {
  fhir: "FHIR server",
  mllp: "HL7 v2 (MLLP)",
};

export const deliveryStatuses = ["pending", "sending", "delivered", "failed", "superseded"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];
export const deliveryStatusLabels: Record<DeliveryStatus, string> = {
  pending: "Waiting to send",
  sending: "Sending",
  delivered: "Delivered",
  failed: "Failed",
  superseded: "Replaced by a later version",
};

export const DESTINATION_URL_MESSAGE = "Enter the FHIR server's base address, starting with https:// or http://";
export const DESTINATION_HOST_MESSAGE = "Enter the MLLP listener's host name or IP address";
export const DESTINATION_PORT_MESSAGE = "Enter the MLLP port, a number from 1 to 65535";

/** A FHIR base URL: http or https only, no user name or password in it, no fragment. */
export function destinationUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return DESTINATION_URL_MESSAGE;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return DESTINATION_URL_MESSAGE;
  if (url.username || url.password) return "Put the token in the token field, not in the address";
  if (url.hash) return "The address must not have a # part";
  return null;
}

const hostPattern =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const ipv6Pattern = /^[0-9A-Fa-f:.]+$/;
export const isHostName = (host: string) => hostPattern.test(host) || (host.includes(":") && ipv6Pattern.test(host));

const name = z.string({ error: "Name the destination" }).trim().min(1, "Name the destination").max(120);
const url = z
  .string()
  .trim()
  .max(500, "The address is too long (at most 500 characters)")
  .superRefine((value, ctx) => {
    const problem = destinationUrlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const host = z.string().trim().min(1, DESTINATION_HOST_MESSAGE).max(255).refine(isHostName, DESTINATION_HOST_MESSAGE);
const port = z.coerce
  .number({ error: DESTINATION_PORT_MESSAGE })
  .int(DESTINATION_PORT_MESSAGE)
  .min(1, DESTINATION_PORT_MESSAGE)
  .max(65535, DESTINATION_PORT_MESSAGE);
const token = z.string().trim().max(4000, "The token is too long (at most 4000 characters)");

export const destinationCreate = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("fhir"), name, url, token: token.optional(), enabled: z.boolean().optional() }),
  z.object({ kind: z.literal("mllp"), name, host, port, enabled: z.boolean().optional() }),
]);
export type DestinationCreate = z.input<typeof destinationCreate>;

/**
 * The "Add a destination" form's values (text inputs; the fields of the other kind are kept but not sent),
 * checked as the request they become: the server's texts, on the fields it would name.
 */
export const destinationForm = z
  .object({
    kind: z.enum(destinationKinds),
    name: z.string(),
    url: z.string(),
    token: z.string(),
    host: z.string(),
    port: z.string(),
  })
  .transform(
    ({ kind, name, url, token, host, port }): DestinationCreate =>
      kind === "fhir" ? { kind, name, url, ...(token.trim() ? { token } : {}) } : { kind, name, host, port },
  )
  .pipe(destinationCreate);
export type DestinationForm = z.input<typeof destinationForm>;

/** PATCH: the fields sent change; token "" or null removes it, absent keeps it. */
export const destinationUpdate = z.object({
  name: name.optional(),
  url: url.optional(),
  host: host.optional(),
  port: port.optional(),
  token: token.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type DestinationUpdate = z.input<typeof destinationUpdate>;

export const destination = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(destinationKinds),
  url: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().nullable(),
  hasToken: z.boolean(),
  enabled: z.boolean(),
});
export type Destination = z.infer<typeof destination>;
export const destinationList = z.array(destination);

export const reportDelivery = z.object({
  id: z.number(),
  destinationId: z.number(),
  destinationName: z.string(),
  destinationKind: z.enum(destinationKinds),
  reason: z.string(),
  amendmentNumber: z.number(),
  status: z.enum(deliveryStatuses),
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ReportDelivery = z.infer<typeof reportDelivery>;
export const reportDeliveryList = z.array(reportDelivery);
