import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runAuditVerify } from "../cli/audit-verify";
import { loadConfig } from "../config";
import { openDatabase, queryRows } from "../db/client";
import { keyedHash, recordAudit, setAuditKey, stableStringify, verifyAuditChain } from "./audit";
import { AuditAnchor, anchorPath, readAnchor } from "./audit-anchor";
import { loadSecrets } from "./secrets";

type Row = { id: number; prev_hash: string; hash: string; created_at: string };

describe("the audit chain is keyed, its head anchored outside the database, its timestamps exact", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-anchor-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const key = loadSecrets(dataDir, {}).auditKey;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let anchor: AuditAnchor;
  const broken: string[] = [];

  beforeAll(async () => {
    setAuditKey(key);
    database = await openDatabase({ dataDir, databaseUrl: undefined });
    anchor = await AuditAnchor.open(database.db, dataDir, key, (reason) => broken.push(reason));
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const write = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await database.db.transaction((tx) => recordAudit(tx, { action: "auth.sign_in", actorUserId: `u${i}` }));
    }
    await anchor.advance();
  };
  const rows = () =>
    queryRows<Row>(database.db, sql`select id, prev_hash, hash, created_at::text from audit_events order by id`);
  const verifyCli = async () => {
    await database.close();
    const lines: string[] = [];
    const code = await runAuditVerify(config, (line) => lines.push(line));
    database = await openDatabase({ dataDir, databaseUrl: undefined });
    return { code, output: lines.join("\n") };
  };

  it("anchors the head in a 0600 file beside the key, and the command verifies", async () => {
    await write(25);
    const head = readAnchor(dataDir, key)!;
    const last = (await rows()).at(-1)!;
    expect(head).toMatchObject({ keyedFromId: 1, headId: Number(last.id), headHash: last.hash, count: 25 });
    expect(fs.statSync(anchorPath(dataDir)).mode & 0o777).toBe(0o600);
    expect(await verifyCli()).toEqual({ code: 0, output: "OK: the audit chain is intact (25 events)." });
  });

  it("moves the head forward without synchronous file calls, which would stall every request of the process", async () => {
    // The suite's anchor holds the database the command closed: a server process opens its own.
    const live = await AuditAnchor.open(database.db, dataDir, key, (reason) => broken.push(reason));
    const before = readAnchor(dataDir, key)!;
    const renames = vi.spyOn(fs, "renameSync");
    const writes = vi.spyOn(fs, "writeFileSync");
    for (let i = 0; i < 3; i++) {
      await database.db.transaction((tx) => recordAudit(tx, { action: "auth.sign_in", actorUserId: `v${i}` }));
    }
    await live.advance();
    expect(renames).not.toHaveBeenCalled();
    expect(writes).not.toHaveBeenCalled();
    renames.mockRestore();
    writes.mockRestore();
    expect(broken).toEqual([]);
    expect(readAnchor(dataDir, key)!.count).toBe(before.count + 3);
    // The head written off the event loop verifies as before.
    expect((await verifyCli()).code).toBe(0);
  });

  it("a chain rewritten with recomputed hashes does not verify without the key", async () => {
    const all = await rows();
    const target = all[5]!;
    await database.db.execute(sql`update audit_events set actor_user_id = 'intruder' where id = ${target.id}`);
    // Recompute this and every later hash the way the code does, with a key the intruder could guess: none.
    const guessed = randomBytes(32);
    let prev = target.prev_hash;
    const full = await queryRows<Record<string, unknown>>(
      database.db,
      sql`select *, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as exact from audit_events where id >= ${target.id} order by id`,
    );
    for (const r of full) {
      const hash = keyedHash(guessed, {
        clinicId: r.clinic_id as number | null,
        actorUserId: r.actor_user_id as string | null,
        action: r.action as string,
        entityType: r.entity_type as string | null,
        entityId: r.entity_id as string | null,
        details: r.details,
        ip: r.ip as string | null,
        requestId: r.request_id as string | null,
        createdAt: r.exact as string,
        prevHash: prev,
      });
      await database.db.execute(sql`update audit_events set prev_hash = ${prev}, hash = ${hash} where id = ${r.id}`);
      prev = hash;
    }
    expect(await verifyAuditChain(database.db)).toMatchObject({ ok: false, brokenAtId: Number(target.id) });
    const cli = await verifyCli();
    expect(cli.code).toBe(1);
    expect(cli.output).toContain(`audit event ${target.id} does not verify: its content was changed`);
  });
});

describe("tail truncation and timestamps", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-anchor-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const key = loadSecrets(dataDir, {}).auditKey;
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const withDb = async <T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>) => {
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    try {
      return await fn(database.db);
    } finally {
      await database.close();
    }
  };
  const verifyCli = async () => {
    const lines: string[] = [];
    const code = await runAuditVerify(config, (line) => lines.push(line));
    return { code, output: lines.join("\n") };
  };

  it("a microsecond change of created_at breaks the chain", async () => {
    setAuditKey(key);
    await withDb(async (db) => {
      const anchor = await AuditAnchor.open(db, dataDir, key, () => {});
      for (let i = 0; i < 30; i++) await db.transaction((tx) => recordAudit(tx, { action: "auth.sign_out" }));
      await anchor.close();
    });
    expect((await verifyCli()).code).toBe(0);
    await withDb((db) =>
      db.execute(sql`update audit_events set created_at = created_at + interval '1 microsecond' where id = 3`),
    );
    const moved = await verifyCli();
    expect(moved.code).toBe(1);
    expect(moved.output).toContain("audit event 3 does not verify: its content was changed");
    await withDb((db) =>
      db.execute(sql`update audit_events set created_at = created_at - interval '1 microsecond' where id = 3`),
    );
    expect((await verifyCli()).code).toBe(0);
  });

  it("deleting the newest 20 events, or all of them, is reported as a cut tail", async () => {
    await withDb((db) => db.execute(sql`delete from audit_events where id > 10`));
    const cut = await verifyCli();
    expect(cut.code).toBe(1);
    expect(cut.output).toBe(
      "BROKEN: the tail was cut: the anchor recorded 30 events up to event 30, the database holds 10 ending at event 10.",
    );
    await withDb((db) => db.execute(sql`delete from audit_events`));
    const empty = await verifyCli();
    expect(empty.code).toBe(1);
    expect(empty.output).toBe(
      "BROKEN: the tail was cut: the anchor recorded 30 events up to event 30, the database holds 0.",
    );
  });

  it("an anchor file edited by hand is refused", async () => {
    const file = anchorPath(dataDir);
    const edited = { ...JSON.parse(fs.readFileSync(file, "utf8")), count: 0, headId: 0 };
    fs.writeFileSync(file, JSON.stringify(edited));
    const result = await verifyCli();
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/changed by hand/);
  });
});

describe("a chain written before the key (upgrade)", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-anchor-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const key = loadSecrets(dataDir, {}).auditKey;
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("keeps plain SHA-256 events valid up to where keying began, and keyed ones after", async () => {
    setAuditKey(key);
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    // Three events as the earlier version wrote them: SHA-256 over the ISO timestamp in milliseconds.
    let prev = "0".repeat(64);
    for (let i = 0; i < 3; i++) {
      const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, i, 123));
      const fields = [prev, null, `u${i}`, "auth.sign_in", null, null, {}, null, null, createdAt.toISOString()];
      const hash = createHash("sha256").update(stableStringify(fields)).digest("hex");
      await database.db.execute(
        sql`insert into audit_events (actor_user_id, action, details, created_at, prev_hash, hash) values (${`u${i}`}, 'auth.sign_in', '{}'::jsonb, ${createdAt.toISOString()}, ${prev}, ${hash})`,
      );
      prev = hash;
    }
    const anchor = await AuditAnchor.open(database.db, dataDir, key, () => {});
    expect(anchor.current).toMatchObject({ keyedFromId: 4, count: 3 });
    await database.db.transaction((tx) => recordAudit(tx, { action: "auth.sign_out" }));
    await anchor.close();
    await database.close();
    const lines: string[] = [];
    expect(await runAuditVerify(config, (line) => lines.push(line))).toBe(0);
    expect(lines).toEqual(["OK: the audit chain is intact (4 events)."]);
  });
});
