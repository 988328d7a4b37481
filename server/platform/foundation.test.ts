import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/client";
import { openTestDatabase } from "../test-support/test-database";
import { recordAudit, setAuditKey, verifyAuditChain } from "./audit";
import { LocalFileStore } from "./file-store";
import { loadSecrets } from "./secrets";

describe("audit chain", () => {
  setAuditKey(randomBytes(32));
  const opened = openTestDatabase();
  afterAll(async () => (await opened).close());

  it("verifies an intact chain and names the first changed row", async () => {
    const { db } = await opened;
    for (let i = 0; i < 4; i++) {
      await db.transaction((tx) =>
        recordAudit(tx, { action: "auth.sign_in", actorUserId: `u${i}`, details: { n: i, b: { z: 1, a: 2 } } }),
      );
    }
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: 4 });
    const rows = await queryRows<{ id: number }>(db, sql`select id from audit_events order by id`);
    const ids = rows.map((r) => Number(r.id));
    await db.execute(sql`update audit_events set actor_user_id = 'intruder' where id = ${ids[2]}`);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, brokenAtId: ids[2] });
  });
});

describe("file store", () => {
  it("encrypts at rest and round-trips", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-files-"));
    const store = new LocalFileStore(dir, randomBytes(32));
    const plain = Buffer.from("PATIENT: Jane Doe, DOB 1950-01-01");
    const { storageKey } = await store.put(plain);
    const onDisk = fs.readFileSync(path.join(dir, storageKey.slice(0, 2), storageKey));
    expect(onDisk.includes(Buffer.from("Jane Doe"))).toBe(false);
    expect((await store.get(storageKey)).equals(plain)).toBe(true);
    const otherKey = new LocalFileStore(dir, randomBytes(32));
    await expect(otherKey.get(storageKey)).rejects.toThrow();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("secrets", () => {
  it("are generated once into the data directory with mode 0600", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-secrets-"));
    const first = loadSecrets(dir, {});
    const second = loadSecrets(dir, {});
    expect(second.auditKey.equals(first.auditKey)).toBe(true);
    expect(second.fileKey.equals(first.fileKey)).toBe(true);
    const mode = fs.statSync(path.join(dir, "secrets", "file-encryption-key")).mode & 0o777;
    expect(mode).toBe(0o600);
    expect(loadSecrets(fs.mkdtempSync(path.join(os.tmpdir(), "s-")), {}).fileKey.equals(first.fileKey)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
