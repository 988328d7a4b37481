import { bigint, index, integer, pgTable, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { clinics, users } from "./clinics";
import { id, timestamps } from "./columns";

/** Every uploaded or generated file; the bytes live encrypted in the file store under storageKey. */
export const storedFiles = pgTable(
  "stored_files",
  {
    id: id(),
    /** Null only for platform-wide files (training pairs). */
    clinicId: integer("clinic_id").references(() => clinics.id, { onDelete: "cascade" }),
    kind: varchar("kind", { length: 40 }).notNull(),
    storageKey: varchar("storage_key", { length: 200 }).notNull().unique(),
    mimeType: varchar("mime_type", { length: 100 }).notNull(),
    byteSize: bigint("byte_size", { mode: "number" }).notNull(),
    sha256: varchar("sha256", { length: 64 }).notNull(),
    originalName: varchar("original_name", { length: 255 }),
    createdBy: varchar("created_by", { length: 64 }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("stored_files_clinic_idx").on(t.clinicId)],
);

export const physicians = pgTable(
  "physicians",
  {
    id: id(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 255 }).notNull(),
    title: varchar("title", { length: 255 }).notNull().default(""),
    specialty: varchar("specialty", { length: 255 }).notNull().default(""),
    signatureUrl: varchar("signature_url", { length: 500 }),
    /** The user account that signs as this physician; null when none (see docs/permissions.md). */
    userId: varchar("user_id", { length: 64 }).references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [index("physicians_clinic_idx").on(t.clinicId), uniqueIndex("physicians_user_idx").on(t.userId)],
);

export const sonographers = pgTable(
  "sonographers",
  {
    id: id(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 255 }).notNull(),
    initials: varchar("initials", { length: 10 }).notNull(),
    title: varchar("title", { length: 100 }),
    department: varchar("department", { length: 100 }),
    ...timestamps,
  },
  (t) => [index("sonographers_clinic_idx").on(t.clinicId)],
);
