import { jsonb, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";
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
