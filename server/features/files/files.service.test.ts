import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalFileStore } from "../../platform/file-store";
import { openTestDatabase } from "../../test-support/test-database";
import { saveFile, sweepUnreferencedFiles } from "./files.service";

describe("sweepUnreferencedFiles", () => {
  const opened = openTestDatabase();
  afterAll(async () => (await opened).close());

  /** A fresh file store with one file that a row points at. */
  async function storeWithKeptFile() {
    const { db } = await opened;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-sweep-"));
    const store = new LocalFileStore(dir, randomBytes(32));
    const kept = await saveFile(db, store, {
      clinicId: null,
      kind: "training-report",
      data: Buffer.from("kept"),
      mimeType: "application/pdf",
    });
    return { db, dir, store, kept };
  }

  it("removes old files no row points at, and keeps referenced and recent ones", async () => {
    const { db, dir, store, kept } = await storeWithKeptFile();
    // What a crash leaves: bytes written, row never committed; and a temporary file.
    const orphan = await store.put(Buffer.from("orphan"));
    const recentOrphan = await store.put(Buffer.from("in flight"));
    const tmpName = `${randomUUID()}.bin.123.tmp`;
    const tmp = path.join(dir, tmpName.slice(0, 2), tmpName);
    fs.mkdirSync(path.dirname(tmp), { recursive: true });
    fs.writeFileSync(tmp, "partial");
    const old = new Date(Date.now() - 2 * 3_600_000);
    for (const key of [kept.storageKey, orphan.storageKey]) {
      fs.utimesSync(path.join(dir, key.slice(0, 2), key), old, old);
    }
    fs.utimesSync(tmp, old, old);

    expect(await sweepUnreferencedFiles(db, store)).toBe(2);
    expect((await store.get(kept.storageKey)).toString()).toBe("kept");
    expect((await store.get(recentOrphan.storageKey)).toString()).toBe("in flight");
    await expect(store.get(orphan.storageKey)).rejects.toThrow();
    expect(fs.existsSync(tmp)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("with no grace (the embedded database's start-up) removes recent leftovers too", async () => {
    const { db, dir, store, kept } = await storeWithKeptFile();
    const leftover = await store.put(Buffer.from("written, never committed"));

    expect(await sweepUnreferencedFiles(db, store, 0)).toBe(1);
    expect((await store.get(kept.storageKey)).toString()).toBe("kept");
    await expect(store.get(leftover.storageKey)).rejects.toThrow();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
