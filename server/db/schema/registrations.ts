import { index, jsonb, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { users } from "./clinics";
import { id } from "./columns";

/** What the registration form said, kept until the address is proven (the admin's names and the clinic's fields). */
export type RegistrationDetails = {
  name: string;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  adminFirstName: string;
  adminLastName: string;
};

/**
 * A clinic registration waiting for its e-mail address to be proven (decision 018): the clinic and its admin
 * are created only when the link mailed to the address is opened. The table holds the link token's hash.
 */
export const clinicRegistrations = pgTable("clinic_registrations", {
  id: id(),
  tokenHash: varchar("token_hash", { length: 64 }).notNull().unique(),
  email: varchar("email", { length: 255 }).notNull(),
  passwordHash: text("password_hash").notNull(),
  details: jsonb("details").$type<RegistrationDetails>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/**
 * A password-reset link (issue 29): asked for from the sign-in page (mailed) or issued by a clinic admin (shown
 * to copy). Only the token's hash is kept; a row is deleted when its link is used, with every other link of the
 * user, so a link works once.
 */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: id(),
    tokenHash: varchar("token_hash", { length: 64 }).notNull().unique(),
    userId: varchar("user_id", { length: 64 })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The admin who issued it from the Staff page; null when the user asked for it themselves. */
    issuedBy: varchar("issued_by", { length: 64 }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);
