import fs from "node:fs";
import type { HTTPMethods, InjectOptions, RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissions, type Role, roles } from "../domain/permissions";
import { type MatrixRow, permissionMatrix } from "./test-support/permission-matrix";
import { addClinicMember } from "./test-support/signing";
import { tenantFixtures } from "./test-support/tenant-fixtures";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "./test-support/test-app";

const ROLE_REFUSED = "Your role does not allow this action";

const fixtureFor = (url: string) =>
  tenantFixtures.filter((f) => url.startsWith(f.prefix)).sort((a, b) => b.prefix.length - a.prefix.length)[0];
const hasId = (url: string) => /:(?!token)\w+/.test(url);

/**
 * Issue 26 item 6: every route, called by an admin, a sonographer and a physician of the clinic, and by each
 * role of another clinic, answers as domain/permissions.ts says. docs/permissions.md states the same table.
 */
describe("permission matrix", () => {
  const registered: string[] = [];
  let t: TestApp;
  const clinicA = {} as Record<Role, SignedIn>;
  const clinicB = {} as Record<Role, SignedIn>;

  beforeAll(async () => {
    t = await createTestApp(
      { REGISTRATIONS_PER_HOUR: "1000" },
      {
        onRoute(route: RouteOptions) {
          for (const method of ([] as HTTPMethods[]).concat(route.method)) {
            if (method !== "HEAD" && method !== "OPTIONS") registered.push(`${method} ${route.url}`);
          }
        },
      },
    );
    for (const [clinic, name] of [
      [clinicA, "Clinic A"],
      [clinicB, "Clinic B"],
    ] as const) {
      clinic.admin = await registerClinic(t.app, name);
      clinic.sonographer = await addClinicMember(t, clinic.admin.clinicId, "sonographer", {
        firstName: "S",
        lastName: "O",
      });
      clinic.physician = await addClinicMember(t, clinic.admin.clinicId, "physician", {
        firstName: "P",
        lastName: "H",
      });
    }
  }, 300_000);
  afterAll(() => t.close());

  /** The concrete request of a row: a fresh resource of clinic A for a route with an id. */
  async function requestFor(row: MatrixRow): Promise<InjectOptions> {
    const [method, pattern] = row.route.split(" ") as [HTTPMethods, string];
    const ctx = { deps: t.deps, owner: clinicA.admin };
    if (!hasId(pattern)) return { method, url: pattern, ...(await row.request?.(ctx)) };
    const fixture = fixtureFor(pattern);
    if (!fixture) throw new Error(`${row.route}: no tenant fixture for its id`);
    const id = await fixture.create(t.app, clinicA.admin, t.deps);
    await row.prepare?.(ctx, id);
    let first = true;
    const url = pattern.replace(/:(\w+)/g, (_whole, name: string) => {
      if (!first) return fixture.params?.[name] ?? "1";
      first = false;
      return id;
    });
    return { method, url, ...fixture.request?.(method, pattern), ...(await row.request?.(ctx)) };
  }

  it("has exactly one row for every registered route, and no row for a route that does not exist", () => {
    const rows = permissionMatrix.map((r) => r.route);
    const missing = registered.filter((r) => !rows.includes(r));
    const stale = rows.filter((r) => !registered.includes(r));
    const doubled = rows.filter((r, i) => rows.indexOf(r) !== i);
    expect({ missing, stale, doubled }, "add one row per route in server/test-support/permission-matrix.ts").toEqual({
      missing: [],
      stale: [],
      doubled: [],
    });
  });

  it("gives each clinic role exactly what domain/permissions.ts gives it, on every route", async () => {
    const failures: string[] = [];
    for (const row of permissionMatrix) {
      if (row.access === "public" || row.access === "invitation-token") continue;
      for (const role of roles) {
        const res = await as(t.app, clinicA[role])(await requestFor(row));
        const refusedByRole = res.statusCode === 403 && res.json().error === ROLE_REFUSED;
        const refusedAsAdminOnly = res.statusCode === 403 && row.access === "platform-admin";
        const allowed =
          row.access === "signed-in"
            ? true
            : row.access === "platform-admin"
              ? false
              : (permissions[row.access] as readonly string[]).includes(role);
        const answer = `${row.route} as ${role}: ${res.statusCode} ${res.body.slice(0, 120)}`;
        const letThrough = !refusedByRole && ![401, 404].includes(res.statusCode);
        if (allowed && !letThrough && res.statusCode !== row.alsoAllowed?.status) failures.push(`refused: ${answer}`);
        if (!allowed && !(refusedByRole || refusedAsAdminOnly)) failures.push(`not refused: ${answer}`);
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
  }, 600_000);

  it("never gives another clinic's members a clinic's resource: 404 (or 403), never its data", async () => {
    const failures: string[] = [];
    for (const row of permissionMatrix.filter(
      (r) => hasId(r.route.split(" ")[1]!) && r.access !== "invitation-token",
    )) {
      for (const role of roles) {
        const request = await requestFor(row);
        const res = await as(t.app, clinicB[role])(request);
        if (![403, 404].includes(res.statusCode)) {
          failures.push(`${row.route} as clinic B's ${role}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
  }, 600_000);

  it("refuses every route but the public ones without a session (401)", async () => {
    const failures: string[] = [];
    for (const row of permissionMatrix.filter((r) => r.access !== "public" && r.access !== "invitation-token")) {
      const res = await t.app.inject(await requestFor(row));
      if (res.statusCode !== 401) failures.push(`${row.route}: ${res.statusCode}`);
    }
    expect(failures, failures.join("\n")).toEqual([]);
  }, 600_000);

  it("docs/permissions.md states the same table as domain/permissions.ts", () => {
    const doc = fs.readFileSync(new URL("../docs/permissions.md", import.meta.url), "utf8");
    const table: Record<string, string[]> = {};
    for (const line of doc.split("\n")) {
      const cells = line.split("|").map((c) => c.trim());
      const name = cells[1]?.match(/^`([a-z-]+:[a-z-]+)`$/)?.[1];
      if (!name) continue;
      table[name] = roles.filter((_role, i) => cells[2 + i] === "yes");
    }
    const expected = Object.fromEntries(
      Object.entries(permissions).map(([name, allowed]) => [
        name,
        roles.filter((r) => (allowed as readonly string[]).includes(r)),
      ]),
    );
    expect(table).toEqual(expected);
  });
});
