import type { FastifyInstance, InjectOptions } from "fastify";
import { reports, reportVersions, sonographers, worksheets, worksheetTemplates } from "../db/schema";
import { saveFile } from "../features/files/files.service";
import { snapshotOf } from "../features/reports/report-dto";
import type { AppDeps } from "../platform/deps";
import { as, multipart, type SignedIn } from "./test-app";

/**
 * One entry per clinic-owned resource reachable by an id in a route. The cross-tenant test
 * (server/cross-tenant.test.ts) finds every route with an id-like parameter, creates a resource in
 * clinic A with the matching fixture (longest prefix wins), calls the route as a user of clinic B and
 * expects 404. A new route with a parameter and no fixture fails that test: add a fixture here.
 */
export type TenantFixture = {
  /** The route path up to the id, e.g. "/api/invitations/". */
  prefix: string;
  /** Creates the resource as `owner` (an admin of clinic A) and answers its id. */
  create(app: FastifyInstance, owner: SignedIn, deps: AppDeps): Promise<string>;
  /**
   * A valid request body for routes that need one: validation runs before the lookup, so without it the
   * answer would be 400, not the 404 the test looks for. `url` is the route pattern, e.g. "/api/x/:id".
   */
  request?(method: string, url: string): Partial<InjectOptions>;
  /** Values for further parameters after the id (e.g. { n: "1" } for /api/reports/:id/versions/:n); default "1". */
  params?: Record<string, string>;
};

async function created(res: { statusCode: number; body: string; json(): unknown }, what: string): Promise<string> {
  if (res.statusCode >= 300) throw new Error(`fixture ${what}: ${res.statusCode} ${res.body}`);
  return String((res.json() as { id: string | number }).id);
}

// A 1x1 PNG: the smallest real file to store.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

export const tenantFixtures: TenantFixture[] = [
  {
    prefix: "/api/delivery-destinations/",
    async create(app, owner) {
      const res = await as(
        app,
        owner,
      )({
        method: "POST",
        url: "/api/delivery-destinations",
        payload: { kind: "mllp", name: "Tenant HIS", host: "his.example.org", port: 2575 },
      });
      return created(res, "delivery destination");
    },
    request: (method) => (method === "PATCH" ? { payload: { name: "Renamed" } } : {}),
  },
  {
    prefix: "/api/invitations/",
    async create(app, owner) {
      const res = await as(
        app,
        owner,
      )({
        method: "POST",
        url: "/api/invitations",
        payload: { email: `invitee-${Math.random().toString(36).slice(2)}@example.com`, role: "sonographer" },
      });
      return created(res, "invitation");
    },
  },
  {
    prefix: "/api/staff/",
    // The owner themselves is a member of clinic A; clinic B must not even learn that the id exists.
    create: async (_app, owner) => owner.userId,
  },
  {
    prefix: "/api/files/",
    async create(_app, owner, deps) {
      const file = await saveFile(deps.database.db, deps.fileStore, {
        clinicId: owner.clinicId,
        kind: "logo",
        data: PNG,
        mimeType: "image/png",
        createdBy: owner.userId,
      });
      return String(file.id);
    },
  },
  {
    prefix: "/api/worksheets/",
    // Stored directly: an upload would start the OCR child process just to open the file.
    async create(_app, owner, deps) {
      const file = await saveFile(deps.database.db, deps.fileStore, {
        clinicId: owner.clinicId,
        kind: "worksheet",
        data: PNG,
        mimeType: "image/png",
        createdBy: owner.userId,
      });
      const [row] = await deps.database.db
        .insert(worksheets)
        .values({
          clinicId: owner.clinicId,
          filename: "worksheet.png",
          originalName: "worksheet.png",
          fileUrl: "",
          fileId: file.id,
          imageFileId: file.id,
        })
        .returning();
      return String(row!.id);
    },
  },
  {
    prefix: "/api/physicians/",
    async create(app, owner) {
      const res = await as(app, owner)({ method: "POST", url: "/api/physicians", payload: { name: "Dr. Tenant" } });
      return created(res, "physician");
    },
    request: () => ({ payload: { name: "Dr. Intruder" } }),
  },
  {
    prefix: "/api/sonographers/",
    async create(app, owner) {
      const res = await as(
        app,
        owner,
      )({
        method: "POST",
        url: "/api/sonographers",
        payload: { name: "Tenant Sonographer", initials: "TS" },
      });
      return created(res, "sonographer");
    },
    request: () => ({ payload: { name: "Intruder", initials: "IN" } }),
  },
  {
    prefix: "/api/clinic/",
    // PUT /api/clinic/{id}: only one's own clinic exists; clinic B must get 404 for clinic A's id.
    create: async (_app, owner) => String(owner.clinicId),
    request: () => ({
      payload: { name: "Taken Over", email: `intruder-${Math.random().toString(36).slice(2)}@example.com` },
    }),
  },
  {
    prefix: "/api/digital-worksheets/",
    async create(app, owner, deps) {
      const [template] = await deps.database.db
        .insert(worksheetTemplates)
        .values({ clinicId: owner.clinicId, name: "Tenant sheet", originalFilename: "sheet.png" })
        .returning();
      const [sonographer] = await deps.database.db
        .insert(sonographers)
        .values({ clinicId: owner.clinicId, name: "Tenant Sono", initials: "TS" })
        .returning();
      const res = await as(
        app,
        owner,
      )({
        method: "POST",
        url: "/api/digital-worksheets",
        payload: {
          templateId: template!.id,
          sonographerId: sonographer!.id,
          patientName: "Tenant Patient",
          examDate: "2026-11-01",
          drawingData: `data:image/png;base64,${PNG.toString("base64")}`,
        },
      });
      return created(res, "digital worksheet");
    },
    request: (method) => (method === "PUT" ? { payload: { drawingHistory: "[]" } } : {}),
  },
  {
    prefix: "/api/templates/",
    async create(app, owner) {
      const res = await as(app, owner)({ method: "POST", url: "/api/templates", payload: { name: "Tenant layout" } });
      return created(res, "report template");
    },
    request: () => ({ payload: { name: "Taken" } }),
  },
  {
    prefix: "/api/worksheet-templates/",
    async create(app, owner) {
      const body = multipart([
        { name: "name", value: "Tenant worksheet" },
        { name: "worksheetFile", filename: "sheet.png", contentType: "image/png", data: PNG },
      ]);
      const res = await as(app, owner)({ method: "POST", url: "/api/worksheet-templates", ...body });
      return created(res, "worksheet template");
    },
    request: (method) => (method === "PUT" ? { payload: { zones: [] } } : {}),
  },
  {
    prefix: "/api/legend-entries/",
    async create(app, owner) {
      const body = multipart([
        { name: "title", value: "Tenant legend" },
        { name: "medicalMeaning", value: "Meaning" },
      ]);
      const res = await as(app, owner)({ method: "POST", url: "/api/legend-entries", ...body });
      return created(res, "legend entry");
    },
    // PATCH is multipart like create; the form is read before the lookup.
    request: (method) => (method === "PATCH" ? multipart([{ name: "title", value: "Taken" }]) : {}),
  },
  {
    prefix: "/api/text-shortcuts/",
    async create(app, owner) {
      const res = await as(
        app,
        owner,
      )({ method: "POST", url: "/api/text-shortcuts", payload: { title: "Tenant", shortText: "Text" } });
      return created(res, "text shortcut");
    },
    request: (method) => (method === "PUT" ? { payload: { title: "Taken", shortText: "Taken" } } : {}),
  },
  {
    prefix: "/api/reports/",
    async create(_app, owner, deps) {
      const [row] = await deps.database.db
        .insert(reports)
        .values({
          clinicId: owner.clinicId,
          patientName: "Tenant Patient",
          studyType: "Carotid Duplex",
          indication: "-",
          findings: "-",
          impression: "-",
        })
        .returning();
      // Version 1 as generation stores it, so the owner can open /versions/1.
      await deps.database.db.insert(reportVersions).values({
        clinicId: owner.clinicId,
        reportId: row!.id,
        versionNumber: 1,
        kind: "generated",
        snapshot: snapshotOf(row!),
      });
      return String(row!.id);
    },
    request(method, url) {
      if (url.endsWith("/diff")) return { query: { from: "1", to: "1" } };
      if (url.endsWith("/amend")) return { payload: { reason: "Intruder" } };
      if (url.endsWith("/physician")) return { payload: { physicianId: null } };
      if (url.endsWith("/critical-communication")) {
        const payload = { recipient: "Intruder", method: "phone", communicatedAt: new Date().toISOString() };
        return { payload: { ...payload, readBack: true } };
      }
      if (method === "PATCH") return { payload: { findings: "Intruder" } };
      return {};
    },
    params: { n: "1" },
  },
];
