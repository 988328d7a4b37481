import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { saveFile, sweepUnreferencedFiles } from "../features/files/files.service";
import { startTestS3, type TestS3 } from "../test-support/s3-server";
import { openTestDatabase } from "../test-support/test-database";
import type { FileStore } from "./file-store";
import { openFileStore } from "./open-file-store";

/** Every file under a folder, as bytes: where the store (or the S3 server) keeps what it was given. */
const everyFile = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name)));

type Backend = {
  /** A store on the backend, with the same key as `store` unless one is given. */
  open(key?: Buffer): FileStore;
  /** The folder that holds the backend's bytes at rest. */
  atRest(): string;
  close(): Promise<void>;
};

const backends: Record<"local" | "s3", () => Promise<Backend>> = {
  local: async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-files-"));
    const config = loadConfig({ DATA_DIR: dataDir });
    return {
      open: (key) => openFileStore(config, key ?? sharedKey),
      atRest: () => dataDir,
      close: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  },
  s3: async () => {
    const s3: TestS3 = await startTestS3();
    const config = loadConfig({ DATA_DIR: os.tmpdir(), ...s3.env });
    const opened: FileStore[] = [];
    return {
      open: (key) => {
        const store = openFileStore(config, key ?? sharedKey);
        opened.push(store);
        return store;
      },
      atRest: () => s3.directory,
      close: async () => {
        for (const store of opened) store.close?.();
        await s3.close();
      },
    };
  },
};
const sharedKey = randomBytes(32);

describe.each(["local", "s3"] as const)("the %s file store", (kind) => {
  let backend: Backend;
  let store: FileStore;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;

  // Opening a database takes a minute on a loaded machine: not a test's time.
  beforeAll(async () => {
    backend = await backends[kind]();
    store = backend.open();
    database = await openTestDatabase();
  }, 180_000);
  afterAll(async () => {
    await backend.close();
    await database?.close();
  });

  it("is the one FILE_STORE names", () => {
    expect(store.location).toMatch(kind === "s3" ? /^s3:\/\/sonoscribe-test\/files\/$/ : /files$/);
  });

  it("encrypts before the bytes leave the server and round-trips them", async () => {
    const plain = Buffer.from("PATIENT: Jane Doe, DOB 1950-01-01");
    const stored = await store.put(plain);
    expect(stored.storageKey).toMatch(/^[0-9a-f-]{36}\.bin$/);
    expect(stored.byteSize).toBe(plain.length);
    expect((await store.get(stored.storageKey)).equals(plain)).toBe(true);
    const atRest = everyFile(backend.atRest());
    expect(atRest.length).toBeGreaterThan(0);
    expect(atRest.some((bytes) => bytes.includes(Buffer.from("Jane Doe")))).toBe(false);
    // Another key cannot open it: the seal is authenticated.
    await expect(backend.open(randomBytes(32)).get(stored.storageKey)).rejects.toThrow();
  });

  it("keeps a megabyte of binary exactly", async () => {
    const plain = randomBytes(1024 * 1024);
    const { storageKey, sha256 } = await store.put(plain);
    expect((await store.get(storageKey)).equals(plain)).toBe(true);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("lists what it holds, removes a file (twice is no error), and refuses keys it never makes", async () => {
    const { storageKey } = await store.put(Buffer.from("to remove"));
    expect((await store.list()).map((file) => file.name)).toContain(storageKey);
    const listed = (await store.list()).find((file) => file.name === storageKey)!;
    expect(Math.abs(listed.modifiedMs - Date.now())).toBeLessThan(10 * 60_000);
    await store.remove(storageKey);
    await store.remove(storageKey);
    expect((await store.list()).map((file) => file.name)).not.toContain(storageKey);
    await expect(store.get(storageKey)).rejects.toThrow();
    await expect(store.get("../../etc/passwd")).rejects.toThrow(/Invalid storage key/);
    await expect(store.remove("../secrets/audit-key")).rejects.toThrow(/Invalid storage key/);
  });

  it("seals small secrets with the same key", () => {
    const sealed = store.encrypt(Buffer.from("totp secret"));
    expect(sealed.includes(Buffer.from("totp secret"))).toBe(false);
    expect(backend.open().decrypt(sealed).toString()).toBe("totp secret");
  });

  it("gives the start-up sweep what no row points at, and keeps the rest", async () => {
    const { db } = database;
    const kept = await saveFile(db, store, {
      clinicId: null,
      kind: "training-report",
      data: Buffer.from("kept"),
      mimeType: "application/pdf",
    });
    const orphan = await store.put(Buffer.from("written, never committed"));
    expect(await sweepUnreferencedFiles(db, store, 0)).toBeGreaterThanOrEqual(1);
    expect((await store.get(kept.storageKey)).toString()).toBe("kept");
    await expect(store.get(orphan.storageKey)).rejects.toThrow();
  });
});
