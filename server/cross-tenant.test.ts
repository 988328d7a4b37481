import type { HTTPMethods, RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantFixtures } from "./test-support/tenant-fixtures";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "./test-support/test-app";

type Route = { method: string; url: string };

/** Parameters that are not ids of a clinic's records: invitation tokens are capabilities, checked on their own. */
const NOT_IDS = new Set(["token"]);

const paramsOf = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
const fixtureFor = (url: string) =>
  tenantFixtures.filter((f) => url.startsWith(f.prefix)).sort((a, b) => b.prefix.length - a.prefix.length)[0];

/**
 * Every route with an id, called by a user of clinic B with an id of clinic A, answers 404. Routes are
 * collected as they are registered, so a new route joins the matrix (and fails it until it has a fixture).
 */
describe("cross-tenant matrix", () => {
  const routes: Route[] = [];
  let t: TestApp;
  let ownerA: SignedIn;
  let userB: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        onRoute(route: RouteOptions) {
          const methods = ([] as HTTPMethods[]).concat(route.method);
          for (const method of methods) {
            if (method !== "HEAD" && method !== "OPTIONS") routes.push({ method, url: route.url ?? "" });
          }
        },
      },
    );
    ownerA = await registerClinic(t.app, "Clinic A");
    userB = await registerClinic(t.app, "Clinic B");
  });
  afterAll(() => t.close());

  const idRoutes = () => routes.filter((r) => paramsOf(r.url).some((p) => !NOT_IDS.has(p)));

  it("finds the routes with ids (the collector works)", () => {
    expect(idRoutes().map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(["DELETE /api/invitations/:id", "PATCH /api/staff/:id/deactivate", "GET /api/files/:id"]),
    );
  });

  it("has a fixture for every route with an id", () => {
    const missing = idRoutes()
      .filter((r) => !fixtureFor(r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(missing, `add fixtures in server/test-support/tenant-fixtures.ts for:\n${missing.join("\n")}`).toEqual([]);
  });

  it("answers 404 to clinic B for every clinic-A id on every route", async () => {
    const failures: string[] = [];
    for (const route of idRoutes()) {
      const fixture = fixtureFor(route.url);
      if (!fixture) continue;
      const id = await fixture.create(t.app, ownerA, t.deps);
      // The first id-like parameter gets clinic A's id; later ones (a version number...) the fixture's values.
      let first = true;
      const url = route.url.replace(/:(\w+)/g, (whole, name: string) => {
        if (NOT_IDS.has(name)) return whole;
        if (!first) return fixture.params?.[name] ?? "1";
        first = false;
        return id;
      });
      const extra = fixture.request?.(route.method, route.url) ?? {};
      const res = await as(t.app, userB)({ method: route.method as HTTPMethods, url, ...extra });
      if (res.statusCode !== 404) failures.push(`${route.method} ${route.url} answered ${res.statusCode}`);
      // The same id works for its own clinic: the 404 above is about tenancy, not a bad fixture.
      if (route.method === "GET") {
        const own = await as(t.app, ownerA)({ method: "GET", url });
        if (own.statusCode === 404)
          failures.push(`${route.method} ${route.url}: the fixture's id is not found by its owner`);
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
  });
});
