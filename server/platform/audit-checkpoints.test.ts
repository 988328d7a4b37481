import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuditVerify } from "../cli/audit-verify";
import { loadConfig } from "../config";
import { type Database, openDatabase } from "../db/client";
import { recordAudit, setAuditKey } from "./audit";
import { AuditAnchor, anchorPath, takeDailyCheckpoint } from "./audit-anchor";
import { DAY_MS, readCheckpoints } from "./audit-checkpoints";
import { loadSecrets } from "./secrets";

const silent = { info: () => {}, error: () => {} };

/** Issue 25 item 6: signed daily checkpoints apart from the database, checked by `npm run audit:verify`. */
// Each test opens the embedded database (PGlite runs every migration in WebAssembly) several times: a minute or
// more on a loaded 2-core machine, so the tests get three.
describe("signed daily audit checkpoints", { timeout: 180_000 }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-checkpoints-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const dir = config.auditCheckpointDir;
  const { auditKey } = loadSecrets(dataDir, {});
  const day1 = Date.parse("2026-11-20T09:00:00Z");
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  beforeAll(() => setAuditKey(auditKey));

  const verify = async () => {
    const lines: string[] = [];
    const code = await runAuditVerify(config, (line) => lines.push(line));
    return { code, output: lines.join("\n") };
  };
  /** Runs `work` with the server's pieces open (database, anchor), as a server process would. */
  const withServer = async (work: (db: Database["db"], anchor: AuditAnchor) => Promise<void>) => {
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    const anchor = await AuditAnchor.open(database.db, dataDir, auditKey, () => {});
    try {
      await work(database.db, anchor);
    } finally {
      await anchor.close();
      await database.close();
    }
  };
  const events = (db: Database["db"], n: number, tag: string) =>
    (async () => {
      for (let i = 0; i < n; i++) {
        await db.transaction((tx) => recordAudit(tx, { action: "auth.sign_in", actorUserId: `${tag}${i}` }));
      }
    })();
  const rawSql = async (query: ReturnType<typeof sql>) => {
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    try {
      await database.db.execute(query);
    } finally {
      await database.close();
    }
  };

  it("writes one signed checkpoint per day beside the anchor, which audit:verify checks", async () => {
    await withServer(async (db, anchor) => {
      await events(db, 5, "a");
      await takeDailyCheckpoint(anchor, dir, auditKey, silent, () => day1);
      await events(db, 3, "b");
      // Later the same day: the day's checkpoint is not rewritten.
      await takeDailyCheckpoint(anchor, dir, auditKey, silent, () => day1 + 3_600_000);
      await takeDailyCheckpoint(anchor, dir, auditKey, silent, () => day1 + DAY_MS);
    });
    const checkpoints = readCheckpoints(dir, auditKey);
    expect(checkpoints.map((c) => [c.day, c.count])).toEqual([
      ["2026-11-20", 5],
      ["2026-11-21", 8],
    ]);
    expect(path.dirname(dir)).toBe(path.dirname(anchorPath(dataDir)));
    expect(await verify()).toEqual({
      code: 0,
      output:
        "OK: the audit chain is intact (8 events) and matches its 2 daily checkpoints (the latest of 2026-11-21).",
    });
  });

  it("a checkpoint file edited by hand is reported", async () => {
    const file = path.join(dir, "2026-11-20.json");
    const original = fs.readFileSync(file, "utf8");
    fs.chmodSync(file, 0o600);
    fs.writeFileSync(file, original.replace(/"count": 5/, '"count": 4'));
    try {
      const result = await verify();
      expect(result.code).toBe(1);
      expect(result.output).toContain("2026-11-20.json was changed by hand");
    } finally {
      fs.writeFileSync(file, original);
    }
  });

  it("a deleted head anchor with the tail cut is reported, where before it verified 'UNCHECKED'", async () => {
    const anchorFile = anchorPath(dataDir);
    const saved = fs.readFileSync(anchorFile);
    fs.rmSync(anchorFile);
    try {
      const result = await verify();
      expect(result.code).toBe(1);
      expect(result.output).toMatch(/^BROKEN: the head anchor .* is missing, but 2 daily checkpoints exist/);
    } finally {
      fs.writeFileSync(anchorFile, saved, { mode: 0o600 });
    }
  });

  it("an anchor rolled back to an older signed copy, with the newest events removed to match, is reported", async () => {
    const anchorFile = anchorPath(dataDir);
    const current = fs.readFileSync(anchorFile);
    // An older copy of the anchor (5 events), as someone who kept one could put back.
    await rawSql(sql`select 1`);
    const older = JSON.parse(current.toString());
    const checkpoint = readCheckpoints(dir, auditKey)[0]!;
    const { day: _d, takenAt: _t, ...head } = checkpoint;
    const { writeAnchor } = await import("./audit-anchor");
    writeAnchor(dataDir, auditKey, head);
    try {
      const result = await verify();
      expect(result.code).toBe(1);
      expect(result.output).toContain("fewer than the checkpoint of 2026-11-21 (8): it was rolled back");
    } finally {
      fs.writeFileSync(anchorFile, `${JSON.stringify(older, null, 2)}\n`, { mode: 0o600 });
    }
  });

  it("events removed before the latest checkpoint are reported even after the anchor was made afresh and the chain grew", async () => {
    // The newest three events go, the anchor is deleted, the server restarts (a fresh anchor walks what is left)
    // and writes more events: the anchor and the chain agree with each other, only the checkpoints remember.
    await rawSql(sql`delete from audit_events where id in (select id from audit_events order by id desc limit 3)`);
    fs.rmSync(anchorPath(dataDir));
    await withServer(async (db) => events(db, 6, "c"));
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.output).toBe(
      "BROKEN: the checkpoint of 2026-11-21 recorded 8 events up to event 8, and that event is gone: events before the checkpoint were removed.",
    );
  });
});
