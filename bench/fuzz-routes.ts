import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { HTTPMethods, InjectOptions, LightMyRequestResponse, RouteOptions } from "fastify";
import type { ZodType } from "zod";
import { queryRows } from "../server/db/client";
import { saveFile } from "../server/features/files/files.service";
import { insertPhysician, insertWorksheet } from "../server/features/reports/report-test-fixtures";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../server/test-support/test-app";
import {
  forgedIds,
  invalidBody,
  junkQuery,
  malformedMultipart,
  pathTricks,
  Rng,
  type RouteShape,
  unparsableBody,
} from "./fuzz-inputs";

/**
 * Sends generated malformed requests to every route of the app (npm run bench:fuzz -- --requests 12000).
 * Asserts: no 5xx, no state-changing request accepted, nothing written (every table's content and the files on
 * disk compared after each route), the server still answers afterwards.
 */

export type FuzzSummary = {
  total: number;
  routes: number;
  byStatus: Record<string, number>;
  failures: string[];
  durationMs: number;
};

/** Upload routes read a multipart form in the handler; the zod schema does not say so. */
const MULTIPART_ROUTES = new Set([
  "POST /api/worksheets/upload",
  "POST /api/worksheet-templates",
  "POST /api/legend-entries",
  "PATCH /api/legend-entries/:id",
  "POST /api/training",
  "POST /api/upload-signature",
  "POST /api/upload-logo",
]);
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
/** The only audit events a refused request may leave: a failed sign-in is recorded on purpose. */
const AUDITED_REFUSALS = new Set(["auth.sign_in_failed"]);

function shapeOf(route: RouteOptions, method: string): RouteShape {
  const schema = (route.schema ?? {}) as { body?: ZodType; params?: ZodType; querystring?: ZodType };
  const key = `${method} ${route.url}`;
  const body: RouteShape["body"] = schema.body
    ? { kind: "json", schema: schema.body }
    : MULTIPART_ROUTES.has(key)
      ? { kind: "multipart" }
      : { kind: "none" };
  return { method, url: route.url ?? "", body, params: schema.params ?? null, query: schema.querystring ?? null };
}

type State = { tables: Map<string, string>; auditId: number; files: number };

async function snapshot(t: TestApp, tables: string[]): Promise<State> {
  const db = t.deps.database.db;
  const result = new Map<string, string>();
  for (const table of tables) {
    // Sessions roll their expiry on every signed-in request: only their number must not change.
    const expression =
      table === "sessions" || table === "audit_events"
        ? sql.raw(`select count(*)::text as v from "${table}"`)
        : sql.raw(`select count(*) || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as v
                   from "${table}" x`);
    const [row] = await queryRows<{ v: string }>(db, expression);
    result.set(table, row!.v);
  }
  const [audit] = await queryRows<{ id: string | null }>(db, sql`select max(id)::text as id from audit_events`);
  return { tables: result, auditId: Number(audit?.id ?? 0), files: countFiles(path.join(t.dataDir, "files")) };
}

function countFiles(root: string): number {
  if (!fs.existsSync(root)) return 0;
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

async function compare(t: TestApp, before: State, after: State, where: string): Promise<string[]> {
  const problems: string[] = [];
  for (const [table, value] of after.tables) {
    if (before.tables.get(table) !== value) problems.push(`${where}: table ${table} changed`);
  }
  if (after.files !== before.files) problems.push(`${where}: files on disk ${before.files} -> ${after.files}`);
  const audits = await queryRows<{ action: string }>(
    t.deps.database.db,
    sql`select action from audit_events where id > ${before.auditId}`,
  );
  for (const { action } of audits) {
    if (!AUDITED_REFUSALS.has(action)) problems.push(`${where}: audit event ${action} written`);
  }
  return problems;
}

/** Clinic A owns one of most things; the fuzzing user of clinic B uses their ids as forged ids. */
async function seedForeignRecords(t: TestApp, owner: SignedIn): Promise<string[]> {
  const request = as(t.app, owner);
  const physician = await insertPhysician(t, owner.clinicId);
  await request({ method: "POST", url: "/api/sonographers", payload: { name: "Sam Sono", initials: "SS" } });
  await request({ method: "POST", url: "/api/invitations", payload: { email: "new@a.test", role: "sonographer" } });
  await request({
    method: "POST",
    url: "/api/text-shortcuts",
    payload: { title: "Normal", shortText: "No stenosis.", category: "general" },
  });
  const worksheet = await insertWorksheet(t, owner.clinicId);
  const report = await request({
    method: "POST",
    url: "/api/reports/generate",
    payload: { worksheetId: worksheet.id, physicianId: physician.id },
  });
  if (report.statusCode !== 201) throw new Error(`seed report: ${report.statusCode} ${report.body}`);
  await saveFile(t.deps.database.db, t.deps.fileStore, {
    clinicId: owner.clinicId,
    kind: "logo",
    data: Buffer.from("not read"),
    mimeType: "image/png",
  });
  const tables = await queryRows<{ table_name: string }>(
    t.deps.database.db,
    // Rows of the clinic that have an id of their own (counters and change logs keyed by the clinic have none).
    sql`select table_name from information_schema.columns c where table_schema = 'public' and column_name = 'clinic_id'
        and exists (select 1 from information_schema.columns i
                    where i.table_schema = 'public' and i.table_name = c.table_name and i.column_name = 'id')`,
  );
  const ids = new Set<string>([String(owner.clinicId)]);
  for (const { table_name } of tables) {
    if (table_name === "audit_events") continue;
    const rows = await queryRows<{ id: string }>(
      t.deps.database.db,
      sql.raw(`select id::text as id from "${table_name}" where clinic_id = ${owner.clinicId}`),
    );
    for (const row of rows) ids.add(row.id);
  }
  return [...ids];
}

type Identity = "clinic" | "anonymous" | "forged-cookie";

function buildRequest(rng: Rng, route: RouteShape, foreign: string[], identity: Identity): InjectOptions {
  const ids = forgedIds(foreign);
  let url = route.url.replace(/:(\w+)/g, (_whole, name: string) =>
    name === "token" ? rng.pick(["x", "%00", "a".repeat(600), "..%2f..", ...ids]) : rng.pick(ids),
  );
  if (rng.int(7) === 0) url = rng.pick(pathTricks(url));
  const headers: Record<string, string> = {};
  if (identity === "forged-cookie") headers.cookie = rng.pick(["sid=forged", `sid=${"a".repeat(4000)}`, "sid=%00"]);
  if (rng.int(8) === 0) headers.origin = rng.pick(["http://evil.example", "null", "http://127.0.0.1.evil.example"]);
  if (rng.int(20) === 0) headers["sec-fetch-site"] = "cross-site";
  if (rng.int(15) === 0) headers["accept-encoding"] = rng.pick(["gzip;q=2", "br, *;q=-1", "\u00ff"]);
  const options: InjectOptions = { method: route.method as HTTPMethods, url, headers };

  if (SAFE.has(route.method)) {
    if (rng.int(2) === 0) options.url = `${url}${junkQuery(rng, route.query, rng.int(2) === 0)}`;
    return options;
  }
  if (rng.int(6) === 0) options.url = `${url}${junkQuery(rng, route.query)}`;
  const roll = rng.int(10);
  let body: Pick<InjectOptions, "payload" | "headers">;
  if (route.body.kind === "json") {
    body =
      roll < 5
        ? {
            payload: JSON.stringify(invalidBody(rng, route.body.schema)),
            headers: { "content-type": "application/json" },
          }
        : roll < 8
          ? unparsableBody(rng)
          : malformedMultipart(rng);
  } else if (route.body.kind === "multipart") {
    body = roll < 7 ? malformedMultipart(rng) : roll < 9 ? unparsableBody(rng) : { payload: { a: 1 } };
  } else {
    // A route that reads no body is refused here only for its forged id or for a body no parser accepts.
    body = route.params && roll < 4 ? { payload: roll < 2 ? {} : undefined } : unparsableBody(rng);
  }
  return { ...options, payload: body.payload, headers: { ...headers, ...body.headers } };
}

const describeRequest = (o: InjectOptions, identity: Identity) => {
  const payload =
    o.payload === undefined
      ? ""
      : Buffer.isBuffer(o.payload)
        ? o.payload.toString("latin1")
        : String(typeof o.payload === "object" ? JSON.stringify(o.payload) : o.payload);
  return `${o.method} ${String(o.url).slice(0, 160)} as ${identity} headers=${JSON.stringify(o.headers).slice(0, 200)} body=${JSON.stringify(payload.slice(0, 160))}`;
};

async function inject(t: TestApp, options: InjectOptions): Promise<LightMyRequestResponse | Error> {
  const timeout = new Promise<Error>((resolve) =>
    setTimeout(() => resolve(new Error("no answer in 30 s")), 30_000).unref(),
  );
  return Promise.race([t.app.inject(options).catch((error: Error) => error), timeout]);
}

export async function runFuzz(options: {
  requests: number;
  seed?: number;
  log?: (line: string) => void;
}): Promise<FuzzSummary> {
  const started = Date.now();
  const rng = new Rng(options.seed ?? 20240601);
  const log = options.log ?? (() => {});
  const collected: Array<{ route: RouteOptions; method: string }> = [];
  // A built client as production has one, so that unknown non-API paths get the page, not "client not built".
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-fuzz-web-"));
  fs.writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>Sonoscribe</title>");
  const t = await createTestApp(
    {},
    {
      webRoot,
      onRoute(route) {
        for (const method of ([] as string[]).concat(route.method)) {
          if (method !== "HEAD" && method !== "OPTIONS") collected.push({ route, method });
        }
      },
    },
  );
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  const failures: string[] = [];
  const byStatus: Record<string, number> = {};
  let total = 0;
  try {
    const owner = await registerClinic(t.app, "Clinic A");
    const user = await registerClinic(t.app, "Clinic B");
    const foreign = await seedForeignRecords(t, owner);
    const tables = (
      await queryRows<{ table_name: string }>(
        t.deps.database.db,
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      )
    )
      .map((r) => r.table_name)
      // Counting every request, refused ones too, is what the rate limits' table is for (issue 27).
      .filter((name) => name !== "rate_counters");
    const routes = collected.map(({ route, method }) => shapeOf(route, method));
    const perRoute = Math.max(1, Math.ceil(options.requests / routes.length));
    for (const route of routes) {
      const before = await snapshot(t, tables);
      for (let i = 0; i < perRoute; i++) {
        // Signing out is the one thing a request may rightly do to the fuzzing session: logout gets no real cookie.
        const identity: Identity =
          route.url === "/api/logout"
            ? rng.pick(["anonymous", "forged-cookie"] as const)
            : rng.pick(["clinic", "clinic", "clinic", "anonymous", "forged-cookie"] as const);
        const request = buildRequest(rng, route, foreign, identity);
        if (identity === "clinic") request.headers = { ...request.headers, cookie: user.cookie };
        request.remoteAddress = `10.${rng.int(256)}.${rng.int(256)}.${rng.int(256)}`;
        const res = await inject(t, request);
        total++;
        if (res instanceof Error) {
          failures.push(`${route.method} ${route.url}: ${res.message} for ${describeRequest(request, identity)}`);
          continue;
        }
        byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
        // Signing out without a real session changes nothing (the snapshot below still checks) and answers 303.
        const accepted = !SAFE.has(route.method) && res.statusCode < 400 && route.url !== "/api/logout";
        if (res.statusCode >= 500 || accepted) {
          failures.push(
            `${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 200)} for ${describeRequest(request, identity)}`,
          );
        }
      }
      failures.push(...(await compare(t, before, await snapshot(t, tables), `${route.method} ${route.url}`)));
      log(`${route.method} ${route.url}: ${perRoute} requests, ${Date.now() - started} ms`);
    }
    const health = await t.app.inject({ method: "GET", url: "/api/health" });
    if (health.statusCode !== 200) failures.push(`health after the run: ${health.statusCode}`);
    const me = await as(t.app, user)({ method: "GET", url: "/api/auth/user" });
    if (me.statusCode !== 200) failures.push(`the fuzzing user's session ended: ${me.statusCode}`);
    for (const reason of unhandled) failures.push(`unhandled rejection: ${String(reason).slice(0, 300)}`);
    return { total, routes: routes.length, byStatus, failures, durationMs: Date.now() - started };
  } finally {
    process.off("unhandledRejection", onUnhandled);
    await t.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  }
}

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const requests = argument("requests", 2000);
  const summary = await runFuzz({
    requests,
    seed: argument("seed", 20240601),
    log: process.argv.includes("--verbose") ? (l) => process.stdout.write(`${l}\n`) : undefined,
  });
  process.stdout.write(
    `${summary.total} requests to ${summary.routes} routes in ${(summary.durationMs / 1000).toFixed(1)} s\n` +
      `statuses: ${JSON.stringify(summary.byStatus)}\nfailures: ${summary.failures.length}\n` +
      summary.failures
        .slice(0, 50)
        .map((f) => `  ${f}\n`)
        .join(""),
  );
  process.exit(summary.failures.length === 0 ? 0 : 1);
}
