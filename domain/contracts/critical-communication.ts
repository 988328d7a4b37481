import { z } from "zod";
import { criticalResultSchema } from "./study";

// Issue 26: recording that a critical result was communicated (POST /api/reports/{id}/critical-communication).

export const communicationMethods = ["phone", "in_person", "secure_message"] as const;
export type CommunicationMethod = (typeof communicationMethods)[number];

/** How a record reads in the report, the exports and the audit trail. */
export const communicationMethodWords: Record<CommunicationMethod, string> = {
  phone: "by phone",
  in_person: "in person",
  secure_message: "by secure message",
};

export const communicationMethodLabels: Record<CommunicationMethod, string> = {
  phone: "Phone",
  in_person: "In person",
  secure_message: "Secure message",
};

export const recordCommunicationRequest = z.object({
  recipient: z
    .string({ error: "Say whom the result was communicated to" })
    .trim()
    .min(1, "Say whom the result was communicated to")
    .max(255, "The recipient must be at most 255 characters"),
  method: z.enum(communicationMethods, { error: "Choose how it was communicated: phone, in person or secure message" }),
  communicatedAt: z.iso.datetime({ offset: true, error: "Give the date and time it was communicated" }),
  readBack: z.boolean({ error: "Say whether the recipient read the result back" }),
  notes: z
    .string()
    .trim()
    .max(2000, "Notes must be at most 2000 characters")
    .nullish()
    .transform((v) => v || null),
});
export type RecordCommunicationRequest = z.input<typeof recordCommunicationRequest>;

/**
 * The record dialog's values: the request's fields as the form holds them (the time as a datetime-local value
 * in the browser's zone, read back as yes/no radios), with the dialog's shorter texts.
 */
export const communicationForm = z.object({
  recipient: recordCommunicationRequest.shape.recipient,
  method: z.enum(communicationMethods, { error: "Choose how it was communicated" }),
  communicatedAt: z.string().min(1, "Give the date and time it was communicated"),
  readBack: z.enum(["yes", "no"], { error: "Say whether the recipient read the result back" }),
  notes: z.string(),
});
export type CommunicationForm = z.input<typeof communicationForm>;

export const criticalCommunicationSchema = z.object({
  id: z.number(),
  recipient: z.string(),
  method: z.enum(communicationMethods),
  communicatedAt: z.string(),
  readBack: z.boolean(),
  notes: z.string().nullable(),
  recordedBy: z.string(),
  recordedByName: z.string().nullable(),
  recordedAt: z.string(),
  amendmentNumber: z.number(),
  /** The results this record covers, as they read when it was made. */
  results: z.array(criticalResultSchema),
});
export type CriticalCommunication = z.infer<typeof criticalCommunicationSchema>;

/** A report's critical result as the clinic's rules show it, and whether a record covers it. */
export const reportCriticalResultSchema = criticalResultSchema.extend({ communicated: z.boolean() });
export type ReportCriticalResult = z.infer<typeof reportCriticalResultSchema>;

export const CRITICAL_NOT_COMMUNICATED_CODE = "critical_result_not_communicated";

/** "Critical result communicated to Dr Lee by Dr Dubois on 24 Nov 2026, 14:05 by phone, read back" */
export function communicationLine(
  record: Pick<CriticalCommunication, "recipient" | "method" | "readBack">,
  by: string,
  when: string,
): string {
  const readBack = record.readBack ? "read back" : "not read back";
  return `Critical result communicated to ${record.recipient} by ${by} on ${when} ${communicationMethodWords[record.method]}, ${readBack}`;
}
