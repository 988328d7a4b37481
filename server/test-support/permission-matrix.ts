import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import type { Permission } from "../../domain/permissions";
import { sonographers, worksheets, worksheetTemplates } from "../db/schema";
import type { AppDeps } from "../platform/deps";
import { multipart, type SignedIn } from "./test-app";

/**
 * Who may call every route (issue 26 item 6), one row per route. `access` is a permission of
 * domain/permissions.ts (the roles that hold it must pass its gate, the others get 403 "Your role does not
 * allow this action"), or one of the kinds that are not clinic roles. server/permission-matrix.test.ts calls
 * every row as an admin, a sonographer and a physician of one clinic and as each role of another clinic,
 * and fails for a registered route without a row: a new route is one new row here.
 *
 * Routes with an id take a fresh resource from server/test-support/tenant-fixtures.ts (also their bodies).
 */
export type Access =
  | Permission
  /** Any signed-in member of a clinic, whatever the role (their own account, their own session). */
  | "signed-in"
  /** No session needed (sign-in, registration, health, the print page's script). */
  | "public"
  /** Platform administration (`npm run admin:grant`), never a clinic role: every clinic role gets 403. */
  | "platform-admin"
  /** An invitation link: the token is the capability (server/features/invitations/invitations.routes.test.ts). */
  | "invitation-token";

export type MatrixContext = { deps: AppDeps; owner: SignedIn };

export type MatrixRow = {
  route: string;
  access: Access;
  /** The request (body, query) for a route without an id; routes with an id use their tenant fixture's. */
  request?: (ctx: MatrixContext) => Promise<Partial<InjectOptions>> | Partial<InjectOptions>;
  /** Prepares the fresh resource so that an allowed call is cheap (e.g. OCR already running: 409, no OCR). */
  prepare?: (ctx: MatrixContext, id: string) => Promise<void>;
  /** An answer that still shows the role was let through (checked after the role), with why. */
  alsoAllowed?: { status: number; why: string };
};

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const unique = () => Math.random().toString(36).slice(2, 10);
const json = (payload: unknown) => () => ({ payload }) as Partial<InjectOptions>;

export const permissionMatrix: MatrixRow[] = [
  // Reports
  { route: "GET /api/reports", access: "report:read" },
  { route: "GET /api/reports/recent", access: "report:read" },
  { route: "GET /api/reports/:id", access: "report:read" },
  { route: "GET /api/reports/:id/versions", access: "report:read" },
  { route: "GET /api/reports/:id/prior", access: "report:read" },
  { route: "GET /api/reports/:id/versions/:n", access: "report:read" },
  { route: "GET /api/reports/:id/diff", access: "report:read" },
  { route: "POST /api/reports/generate", access: "report:write", request: json({ scanType: "Carotid Duplex" }) },
  { route: "PATCH /api/reports/:id", access: "report:write" },
  { route: "POST /api/reports/:id/finalize", access: "report:finalize" },
  { route: "POST /api/reports/:id/amend", access: "report:amend" },
  {
    route: "POST /api/reports/:id/critical-communication",
    access: "report:communicate-critical",
    alsoAllowed: { status: 409, why: "the fixture's report has no critical result to communicate" },
  },
  { route: "DELETE /api/reports/:id", access: "report:delete" },
  { route: "GET /api/reports/sign-off", access: "report:sign-off" },
  { route: "PATCH /api/reports/:id/physician", access: "report:assign" },
  { route: "GET /api/reports/turnaround", access: "report:turnaround" },
  // Delivery of signed reports (issue 28)
  { route: "GET /api/reports/:id/deliveries", access: "report:read" },
  {
    route: "POST /api/reports/:id/deliveries/:deliveryId/resend",
    access: "delivery:manage",
    alsoAllowed: { status: 404, why: "a draft has no delivery: looked up after the role check" },
  },
  { route: "GET /api/delivery-destinations", access: "delivery:manage" },
  {
    route: "POST /api/delivery-destinations",
    access: "delivery:manage",
    request: () => ({ payload: { kind: "mllp", name: `Matrix HIS ${unique()}`, host: "his.example.org", port: 2575 } }),
  },
  { route: "PATCH /api/delivery-destinations/:id", access: "delivery:manage" },
  { route: "DELETE /api/delivery-destinations/:id", access: "delivery:manage" },
  // Exports
  { route: "GET /api/reports/:id/pdf", access: "report:read" },
  { route: "GET /api/reports/:id/pdf-file", access: "report:read" },
  { route: "GET /api/reports/:id/docx", access: "report:read" },
  { route: "GET /api/reports/:id/fhir", access: "report:read" },
  { route: "GET /api/reports/:id/hl7", access: "report:read" },
  { route: "GET /api/exports/print-page.js", access: "public" },
  // Worksheets
  {
    route: "POST /api/worksheets/upload",
    access: "worksheet:upload",
    // Not an image: an allowed role is answered 415 after the role check, and no OCR starts.
    request: () =>
      multipart([{ name: "worksheet", filename: "notes.txt", contentType: "text/plain", data: Buffer.from("x") }]),
  },
  {
    route: "POST /api/worksheets/:id/dicom-sr",
    access: "worksheet:upload",
    // Not DICOM: an allowed role is answered 415 after the role check, and nothing is stored.
    request: () =>
      multipart([{ name: "dicomSr", filename: "notes.txt", contentType: "text/plain", data: Buffer.from("x") }]),
  },
  { route: "GET /api/worksheets/:id", access: "worksheet:read" },
  { route: "GET /api/worksheets/:id/image", access: "worksheet:read" },
  {
    route: "POST /api/worksheets/:id/ocr",
    access: "worksheet:upload",
    // Already being read: an allowed role gets 409 after the role check, without starting the OCR child.
    prepare: async ({ deps }, id) => {
      await deps.database.db
        .update(worksheets)
        .set({ ocrStatus: "processing" })
        .where(eq(worksheets.id, Number(id)));
    },
  },
  /** Where the worksheet's OCR job is (stage, progress) and, once read, the result. */
  { route: "GET /api/worksheets/:id/ocr", access: "worksheet:read" },
  // Templates, legend, shortcuts
  { route: "GET /api/templates", access: "template:read" },
  { route: "POST /api/templates", access: "template:write", request: json({ name: "Matrix layout" }) },
  { route: "PATCH /api/templates/:id", access: "template:write" },
  { route: "DELETE /api/templates/:id", access: "template:write" },
  { route: "GET /api/worksheet-templates", access: "template:read" },
  {
    route: "POST /api/worksheet-templates",
    access: "template:write",
    request: () =>
      multipart([
        { name: "name", value: "Matrix sheet" },
        { name: "worksheetFile", filename: "sheet.png", contentType: "image/png", data: PNG },
      ]),
  },
  { route: "DELETE /api/worksheet-templates/:id", access: "template:write" },
  { route: "GET /api/worksheet-templates/:id/image", access: "template:read" },
  { route: "GET /api/worksheet-templates/:id/zones", access: "template:read" },
  { route: "PUT /api/worksheet-templates/:id/zones", access: "template:write" },
  { route: "GET /api/legend-entries", access: "template:read" },
  {
    route: "POST /api/legend-entries",
    access: "legend:write",
    request: () =>
      multipart([
        { name: "title", value: `Matrix ${unique()}` },
        { name: "medicalMeaning", value: "Meaning" },
      ]),
  },
  { route: "PATCH /api/legend-entries/:id", access: "legend:write" },
  { route: "DELETE /api/legend-entries/:id", access: "legend:write" },
  { route: "GET /api/text-shortcuts", access: "template:read" },
  {
    route: "POST /api/text-shortcuts",
    access: "shortcut:write",
    request: () => ({ payload: { title: `Matrix ${unique()}`, shortText: "Text" } }),
  },
  { route: "PUT /api/text-shortcuts/:id", access: "shortcut:write" },
  { route: "DELETE /api/text-shortcuts/:id", access: "shortcut:write" },
  { route: "POST /api/text-shortcuts/:id/use", access: "template:read" },
  // Drawing
  { route: "GET /api/digital-worksheets", access: "report:read" },
  { route: "GET /api/digital-worksheets/:id", access: "report:read" },
  { route: "GET /api/digital-worksheets/:id/image", access: "report:read" },
  {
    route: "POST /api/digital-worksheets",
    access: "drawing:write",
    async request({ deps, owner }) {
      const { db } = deps.database;
      const [template] = await db
        .insert(worksheetTemplates)
        .values({ clinicId: owner.clinicId, name: "Matrix sheet", originalFilename: "sheet.png" })
        .returning();
      const [sonographer] = await db
        .insert(sonographers)
        .values({ clinicId: owner.clinicId, name: "Matrix Sono", initials: "MS" })
        .returning();
      return {
        payload: {
          templateId: template!.id,
          sonographerId: sonographer!.id,
          patientName: "Matrix Patient",
          examDate: "2026-11-01",
          drawingData: `data:image/png;base64,${PNG.toString("base64")}`,
        },
      };
    },
  },
  { route: "PUT /api/digital-worksheets/:id", access: "drawing:write" },
  { route: "POST /api/digital-worksheets/:id/create-draft-report", access: "drawing:write" },
  // Clinic: record, physicians, sonographers, staff, invitations
  { route: "GET /api/clinic", access: "clinic:read" },
  { route: "GET /api/clinic/info", access: "clinic:read" },
  { route: "PUT /api/clinic/:id", access: "clinic:manage" },
  {
    route: "POST /api/upload-logo",
    access: "clinic:manage",
    request: () => multipart([{ name: "logo", filename: "logo.png", contentType: "image/png", data: PNG }]),
  },
  { route: "GET /api/physicians", access: "clinic:read" },
  { route: "POST /api/physicians", access: "clinic:manage", request: json({ name: "Dr. Matrix" }) },
  { route: "PATCH /api/physicians/:id", access: "clinic:manage" },
  { route: "DELETE /api/physicians/:id", access: "clinic:manage" },
  {
    route: "POST /api/upload-signature",
    access: "clinic:manage",
    request: () => multipart([{ name: "signature", filename: "sig.png", contentType: "image/png", data: PNG }]),
  },
  { route: "GET /api/sonographers", access: "clinic:read" },
  { route: "POST /api/sonographers", access: "clinic:manage", request: json({ name: "Matrix Sono", initials: "MS" }) },
  { route: "PUT /api/sonographers/:id", access: "clinic:manage" },
  { route: "DELETE /api/sonographers/:id", access: "clinic:manage" },
  { route: "GET /api/staff", access: "staff:read" },
  { route: "PATCH /api/staff/:id/deactivate", access: "staff:manage" },
  { route: "GET /api/staff/deactivated", access: "staff:manage" },
  { route: "PATCH /api/staff/:id/reactivate", access: "staff:manage" },
  { route: "POST /api/staff/:id/password-reset", access: "staff:manage" },
  { route: "GET /api/invitations", access: "staff:read" },
  {
    route: "POST /api/invitations",
    access: "staff:manage",
    request: () => ({ payload: { email: `matrix-${unique()}@example.com`, role: "sonographer" } }),
  },
  { route: "DELETE /api/invitations/:id", access: "staff:manage" },
  { route: "GET /api/invitations/:token/details", access: "invitation-token" },
  { route: "POST /api/invitations/:token/accept", access: "invitation-token" },
  { route: "POST /api/invitations/:token/register", access: "invitation-token" },
  // Files: a clinic's stored file (logo, signature, scan) for any member of that clinic.
  { route: "GET /api/files/:id", access: "signed-in" },
  // The signed-in person's own account and session
  { route: "GET /api/auth/user", access: "signed-in" },
  { route: "GET /api/auth/reauth", access: "signed-in" },
  {
    route: "GET /api/auth/reauth/oidc",
    access: "signed-in",
    alsoAllowed: {
      status: 404,
      why: "no provider is configured here (server/features/auth/oidc-reauth.test.ts has one)",
    },
  },
  { route: "POST /api/auth/reauth", access: "signed-in", request: json({ password: "not the password at all" }) },
  { route: "GET /api/auth/totp", access: "signed-in" },
  { route: "POST /api/auth/totp/setup", access: "signed-in" },
  { route: "POST /api/auth/totp/enable", access: "signed-in", request: json({ code: "000000" }) },
  { route: "POST /api/auth/totp/disable", access: "signed-in", request: json({ code: "000000" }) },
  { route: "POST /api/auth/totp/complete", access: "public" },
  { route: "GET /api/auth/local-draft-key", access: "signed-in" },
  { route: "POST /api/logout", access: "public" },
  // Signing in and registering
  { route: "GET /api/login", access: "public" },
  { route: "POST /api/auth/login", access: "public" },
  { route: "GET /api/auth/oidc/callback", access: "public" },
  { route: "POST /api/clinics/register", access: "public" },
  { route: "POST /api/clinics/register/confirm", access: "public" },
  { route: "POST /api/auth/password-reset", access: "public" },
  { route: "POST /api/auth/password-reset/complete", access: "public" },
  { route: "GET /api/health", access: "public" },
  // Platform administration
  { route: "GET /api/admin/system-stats", access: "platform-admin" },
  { route: "GET /api/admin/clinic-stats", access: "platform-admin" },
  { route: "GET /api/admin/cost-projection", access: "platform-admin" },
  { route: "GET /api/training", access: "platform-admin" },
  { route: "POST /api/training", access: "platform-admin" },
  // Operator: METRICS_TOKEN, not a session (server/app.test.ts).
  { route: "GET /metrics", access: "public" },
];
