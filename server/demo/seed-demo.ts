import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { WorksheetTemplate } from "../../domain/contracts/templates";
import {
  DEMO_ADMIN,
  DEMO_CLINIC,
  DEMO_LEGEND,
  DEMO_PHYSICIAN_ACCOUNTS,
  DEMO_PHYSICIANS,
  DEMO_SHORTCUTS,
  DEMO_SONOGRAPHER,
  DEMO_SONOGRAPHERS,
  DEMO_TEMPLATES,
  DEMO_WORKSHEET_TEMPLATES,
  type DemoWorksheet,
} from "./demo-content";
import { legendDrawingDataUrl, logoPng, signaturePng } from "./demo-images";
import { type DemoReport, FIXTURES_DIR, seedDemoReports } from "./demo-reports";
import { call, SeedError, type SeedTransport } from "./seed-http";

export type DemoAccount = { role: "admin" | "sonographer" | "physician"; email: string; password: string };

export type DemoSeedResult = {
  clinicId: number;
  accounts: DemoAccount[];
  reports: DemoReport[];
  durationMs: number;
};

export type SeedOptions = {
  progress?: (line: string) => void;
  /** The worksheets to turn into reports; the full demo plan when left out. */
  worksheets?: DemoWorksheet[];
  /**
   * The token of the finish-registering link the server mailed to the address when registration proves the
   * address (decision 018): the seed reads it where the server filed it, in its data directory's outbox.
   */
  registrationToken: (email: string) => Promise<string | null>;
};

/** 18 random bytes: 24 base64url characters, far past the 12-character minimum and any guessing. */
const newPassword = () => randomBytes(18).toString("base64url");

async function signIn(transport: SeedTransport, email: string, password: string): Promise<string> {
  const res = await call(transport, { method: "POST", url: "/api/auth/login", json: { email, password } }, 200);
  if (!res.sessionCookie) throw new SeedError(`signing in as ${email} set no session cookie`);
  return res.sessionCookie;
}

/**
 * Creates the demo clinic through the HTTP API of a fresh server: accounts, staff, templates, legend,
 * shortcuts, then a dozen reports made by the real OCR and report engine. Passwords are returned, never stored.
 */
export async function seedDemo(transport: SeedTransport, options: SeedOptions): Promise<DemoSeedResult> {
  const started = Date.now();
  const progress = options.progress ?? (() => {});
  const adminPassword = newPassword();
  const sonographerPassword = newPassword();

  progress(`Creating the demo clinic "${DEMO_CLINIC.name}"...`);
  const registration = await call<{ status: "registered" | "verification_sent" }>(
    transport,
    {
      method: "POST",
      url: "/api/clinics/register",
      json: {
        name: DEMO_CLINIC.name,
        email: DEMO_ADMIN.email,
        phone: DEMO_CLINIC.phone,
        address: DEMO_CLINIC.address,
        city: DEMO_CLINIC.city,
        state: DEMO_CLINIC.state,
        zipCode: DEMO_CLINIC.zipCode,
        adminFirstName: DEMO_ADMIN.firstName,
        adminLastName: DEMO_ADMIN.lastName,
        password: adminPassword,
      },
    },
    [201, 202],
  );
  // With e-mail set up the clinic exists once the mailed link is opened (decision 018); without, at once.
  if (registration.body.status === "verification_sent") {
    const registrationToken = await options.registrationToken(DEMO_ADMIN.email);
    if (!registrationToken) {
      throw new SeedError(
        `no finish-registering link for ${DEMO_ADMIN.email} in the server's outbox (with SMTP_URL set, run the demo without it)`,
      );
    }
    await call(
      transport,
      {
        method: "POST",
        url: "/api/clinics/register/confirm",
        json: { token: registrationToken, password: adminPassword },
      },
      201,
    );
  }
  const admin = await signIn(transport, DEMO_ADMIN.email, adminPassword);
  const me = await call<{ clinicId: number }>(transport, { method: "GET", url: "/api/auth/user", cookie: admin }, 200);
  const clinicId = me.body.clinicId;
  const asAdmin = { cookie: admin };

  const logo = await call<{ url: string }>(transport, {
    ...asAdmin,
    method: "POST",
    url: "/api/upload-logo",
    form: [
      {
        name: "logo",
        filename: "logo.png",
        contentType: "image/png",
        data: await logoPng(DEMO_CLINIC.name, DEMO_CLINIC.logoColor),
      },
    ],
  });
  await call(transport, {
    ...asAdmin,
    method: "PUT",
    url: `/api/clinic/${clinicId}`,
    json: {
      name: DEMO_CLINIC.name,
      email: DEMO_ADMIN.email,
      address: DEMO_CLINIC.address,
      city: DEMO_CLINIC.city,
      state: DEMO_CLINIC.state,
      zipCode: DEMO_CLINIC.zipCode,
      phone: DEMO_CLINIC.phone,
      logoUrl: logo.body.url,
    },
  });

  // The sonographer joins the way staff do: an invitation from the admin, accepted with a new password.
  const invitation = await call<{ invitationUrl: string }>(transport, {
    ...asAdmin,
    method: "POST",
    url: "/api/invitations",
    json: { email: DEMO_SONOGRAPHER.email, role: "sonographer" },
  });
  const token = invitation.body.invitationUrl.split("/invite/")[1];
  await call(
    transport,
    {
      method: "POST",
      url: `/api/invitations/${token}/register`,
      json: {
        firstName: DEMO_SONOGRAPHER.firstName,
        lastName: DEMO_SONOGRAPHER.lastName,
        password: sonographerPassword,
      },
    },
    201,
  );
  const sonographer = await signIn(transport, DEMO_SONOGRAPHER.email, sonographerPassword);

  progress("Adding physicians with drawn signatures, sonographers, templates, legend and shortcuts...");
  const physicianIds: number[] = [];
  for (const physician of DEMO_PHYSICIANS) {
    const signature = await call<{ url: string }>(transport, {
      ...asAdmin,
      method: "POST",
      url: "/api/upload-signature",
      form: [
        {
          name: "signature",
          filename: "signature.png",
          contentType: "image/png",
          data: await signaturePng(physician.name),
        },
      ],
    });
    const created = await call<{ id: number }>(transport, {
      ...asAdmin,
      method: "POST",
      url: "/api/physicians",
      json: { ...physician, signatureUrl: signature.body.url },
    });
    physicianIds.push(created.body.id);
  }
  // Each physician gets their own account the way a clinic does it: an invitation from the physician's card,
  // accepted with a new password. Accepting links the account, so the demo's signatures are theirs.
  const physicianAccounts: { email: string; password: string; cookie: string }[] = [];
  for (const [index, person] of DEMO_PHYSICIAN_ACCOUNTS.entries()) {
    const password = newPassword();
    const invited = await call<{ invitationUrl: string }>(transport, {
      ...asAdmin,
      method: "POST",
      url: "/api/invitations",
      json: { email: person.email, role: "physician", physicianId: physicianIds[index] },
    });
    await call(
      transport,
      {
        method: "POST",
        url: `/api/invitations/${invited.body.invitationUrl.split("/invite/")[1]}/register`,
        json: { firstName: person.firstName, lastName: person.lastName, password },
      },
      201,
    );
    physicianAccounts.push({ email: person.email, password, cookie: await signIn(transport, person.email, password) });
  }
  for (const person of DEMO_SONOGRAPHERS) {
    await call(transport, { ...asAdmin, method: "POST", url: "/api/sonographers", json: person });
  }
  const templateIds: number[] = [];
  for (const template of DEMO_TEMPLATES) {
    const created = await call<{ id: number }>(transport, {
      ...asAdmin,
      method: "POST",
      url: "/api/templates",
      json: template,
    });
    templateIds.push(created.body.id);
  }
  for (const sheet of DEMO_WORKSHEET_TEMPLATES) {
    await call<WorksheetTemplate>(transport, {
      ...asAdmin,
      method: "POST",
      url: "/api/worksheet-templates",
      form: [
        { name: "name", value: sheet.name },
        { name: "description", value: sheet.description },
        { name: "category", value: sheet.category },
        {
          name: "worksheetFile",
          filename: sheet.file,
          contentType: "image/png",
          data: await readFile(path.join(FIXTURES_DIR, sheet.file)),
        },
      ],
    });
  }
  for (const entry of DEMO_LEGEND) {
    await call(transport, {
      ...asAdmin,
      method: "POST",
      url: "/api/legend-entries",
      form: [
        { name: "title", value: entry.title },
        { name: "description", value: entry.description },
        { name: "medicalMeaning", value: entry.medicalMeaning },
        { name: "category", value: "vascular" },
        { name: "keywords", value: entry.keywords },
        { name: "drawingPattern", value: entry.drawingPattern },
        { name: "imageType", value: "drawing" },
        { name: "drawingData", value: await legendDrawingDataUrl(entry.drawing) },
      ],
    });
  }
  for (const shortcut of DEMO_SHORTCUTS) {
    await call(transport, { ...asAdmin, method: "POST", url: "/api/text-shortcuts", json: shortcut });
  }

  const plan = options.worksheets;
  progress(`Reading ${plan?.length ?? 12} worksheets with OCR and drafting their reports (a few seconds each)...`);
  const reports = await seedDemoReports({
    transport,
    cookies: { admin, sonographer },
    signers: physicianAccounts.map(({ cookie, password }) => ({ cookie, password })),
    physicianIds,
    templateIds,
    progress,
    worksheets: plan,
  });

  return {
    clinicId,
    accounts: [
      { role: "admin", email: DEMO_ADMIN.email, password: adminPassword },
      { role: "sonographer", email: DEMO_SONOGRAPHER.email, password: sonographerPassword },
      ...physicianAccounts.map(({ email, password }) => ({ role: "physician" as const, email, password })),
    ],
    reports,
    durationMs: Date.now() - started,
  };
}
