import { boolean, index, integer, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { clinics } from "./clinics";
import { id, timestamps } from "./columns";
import { reports } from "./reports";

/**
 * Where a clinic's signed reports are sent (issue 28, docs/decisions/019-report-delivery.md): a FHIR server
 * (base URL, bearer token stored encrypted with the file key) or an MLLP listener (host and port).
 */
export const deliveryDestinations = pgTable(
  "delivery_destinations",
  {
    id: id(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 120 }).notNull(),
    /** fhir | mllp */
    kind: varchar("kind", { length: 10 }).notNull(),
    /** FHIR base URL (http or https). */
    url: varchar("url", { length: 500 }),
    /** MLLP host and port. */
    host: varchar("host", { length: 255 }),
    port: integer("port"),
    /** AES-256-GCM with the file key, base64; never sent back to the client. */
    tokenEnc: text("token_enc"),
    enabled: boolean("enabled").notNull().default(true),
    ...timestamps,
  },
  (t) => [index("delivery_destinations_clinic_idx").on(t.clinicId)],
);

/**
 * One report version to one destination: a durable job row the delivery loop claims, sends and retries with
 * backoff. A job queue can replace the loop; the rows stay the report's delivery record.
 */
export const reportDeliveries = pgTable(
  "report_deliveries",
  {
    id: id(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    destinationId: integer("destination_id")
      .notNull()
      .references(() => deliveryDestinations.id, { onDelete: "cascade" }),
    /** The signed state this delivery is for: the report's amendment count when it was signed. */
    amendmentNumber: integer("amendment_number").notNull().default(0),
    /** finalized | amended | resend */
    reason: varchar("reason", { length: 20 }).notNull(),
    /** pending | sending | delivered | failed | superseded */
    status: varchar("status", { length: 20 }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** While "sending": after this moment another loop may take the row again (the sender died). */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    requestedBy: varchar("requested_by", { length: 64 }),
    ...timestamps,
  },
  (t) => [
    index("report_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("report_deliveries_report_idx").on(t.clinicId, t.reportId),
  ],
);
