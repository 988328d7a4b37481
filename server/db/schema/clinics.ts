import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { id, timestamps } from "./columns";

export const clinics = pgTable(
  "clinics",
  {
    id: id(),
    name: varchar("name", { length: 255 }).notNull(),
    /** The clinic's contact address: not an identity (users sign in with theirs), so not unique (decision 018). */
    email: varchar("email", { length: 255 }).notNull(),
    address: text("address"),
    city: varchar("city", { length: 100 }),
    state: varchar("state", { length: 50 }),
    zipCode: varchar("zip_code", { length: 20 }),
    phone: varchar("phone", { length: 50 }),
    fax: varchar("fax", { length: 50 }),
    website: varchar("website", { length: 255 }),
    logoUrl: varchar("logo_url", { length: 500 }),
    subscription: varchar("subscription", { length: 50 }).notNull().default("basic"),
    /** Which carotid criteria set the report engine grades with (see domain/report-engine/criteria-sets). */
    carotidCriteriaSet: varchar("carotid_criteria_set", { length: 50 }).notNull().default("default"),
    /** American or British spelling in the report engine's text (domain/report-engine/spelling.ts). */
    reportSpelling: varchar("report_spelling", { length: 10 }).notNull().default("en-US"),
    isActive: boolean("is_active").notNull().default(true),
    /** Lets staff finalize on a physician's behalf; the signature then says so (off by default). */
    allowSignOnBehalf: boolean("allow_sign_on_behalf").notNull().default(false),
    /** Working days (Mon-Fri) after the exam by which a report should be signed (domain/turnaround.ts). */
    turnaroundTargetDays: integer("turnaround_target_days").notNull().default(2),
    /** Critical-result rules the clinic turned off (docs/critical-results.md); every other rule is on. */
    criticalRulesOff: jsonb("critical_rules_off").$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [check("clinics_turnaround_target_days_range", sql`${t.turnaroundTargetDays} between 0 and 30`)],
);

export const users = pgTable(
  "users",
  {
    id: varchar("id", { length: 64 }).primaryKey(),
    email: varchar("email", { length: 255 }).notNull().unique(),
    passwordHash: text("password_hash"),
    firstName: varchar("first_name", { length: 100 }),
    lastName: varchar("last_name", { length: 100 }),
    profileImageUrl: varchar("profile_image_url", { length: 500 }),
    clinicId: integer("clinic_id").references(() => clinics.id, { onDelete: "cascade" }),
    role: varchar("role", { length: 50 }).notNull().default("sonographer"),
    isActive: boolean("is_active").notNull().default(true),
    invitedBy: varchar("invited_by", { length: 64 }),
    invitedAt: timestamp("invited_at", { withTimezone: true }),
    joinedAt: timestamp("joined_at", { withTimezone: true }),
    oidcSubject: varchar("oidc_subject", { length: 255 }).unique(),
    /** TOTP secret, encrypted with the file key (never stored in clear). */
    totpSecretEnc: text("totp_secret_enc"),
    totpEnabled: boolean("totp_enabled").notNull().default(false),
    /** Last TOTP time step accepted at sign-in: a code is good once (a replayed code is refused). */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** Platform administration: set only by `npm run admin:grant` on the server, never from an e-mail address. */
    isPlatformAdmin: boolean("is_platform_admin").notNull().default(false),
    /** SHA-256 hashes of unused recovery codes. */
    recoveryCodeHashes: jsonb("recovery_code_hashes").$type<string[]>().notNull().default([]),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index("users_clinic_idx").on(t.clinicId)],
);

export const userInvitations = pgTable(
  "user_invitations",
  {
    id: id(),
    email: varchar("email", { length: 255 }).notNull(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    role: varchar("role", { length: 50 }).notNull().default("sonographer"),
    /** A physician invited from the physician's card: accepting links the account to this physician. */
    physicianId: integer("physician_id"),
    invitedBy: varchar("invited_by", { length: 64 }).notNull(),
    /** SHA-256 of the token: the token itself only ever exists in the invitation link. */
    tokenHash: varchar("token_hash", { length: 128 }).notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("user_invitations_clinic_idx").on(t.clinicId)],
);

export type SessionData = {
  userId: string;
  createdAt: number;
  /** Set while a password was accepted but the TOTP step is still due. */
  pendingTotp?: boolean;
  /** When the user last re-authenticated (ms since epoch): signing needs one within 5 minutes. */
  reauthAt?: number;
  oidc?: {
    state: string;
    codeVerifier: string;
    nonce: string;
    /** A re-authentication before signing (issue 26), not a sign-in: whose, since when (ms), and where back to. */
    reauth?: { userId: string; startedAt: number; next: string };
  };
};

export const sessions = pgTable(
  "sessions",
  {
    /** SHA-256 of the cookie value: a stolen table does not yield usable cookies. */
    sid: varchar("sid", { length: 128 }).primaryKey(),
    sess: jsonb("sess").$type<SessionData>().notNull(),
    userId: varchar("user_id", { length: 64 }),
    expire: timestamp("expire", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_expire_idx").on(t.expire), index("sessions_user_idx").on(t.userId)],
);
