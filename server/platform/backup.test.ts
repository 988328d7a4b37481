import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { clinics, storedFiles } from "../db/schema";
import { saveFile } from "../features/files/files.service";
import { startTestS3, startTestS3Process } from "../test-support/s3-server";
import { backup, restore } from "./backup";
import { LocalFileStore } from "./file-store";
import { openFileStore } from "./open-file-store";
import { loadSecrets } from "./secrets";

const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `sonoscribe-${name}-`));

/** A clinic with one stored worksheet file: what each round trip backs up and reads back. */
async function clinicWithWorksheet(
  db: Parameters<typeof saveFile>[0],
  store: Parameters<typeof saveFile>[1],
  values: { name: string; email: string },
  original: Buffer,
) {
  const [clinic] = await db.insert(clinics).values(values).returning();
  const saved = await saveFile(db, store, {
    clinicId: clinic!.id,
    kind: "worksheet",
    data: original,
    mimeType: "image/png",
  });
  return { clinic: clinic!, saved };
}

describe("backup and restore", () => {
  it("round-trips the embedded database and the encrypted files", async () => {
    const source = tempDir("source");
    const config = loadConfig({ DATA_DIR: source });
    const secrets = loadSecrets(source, {});
    const database = await openDatabase({ dataDir: source });
    const store = new LocalFileStore(path.join(source, "files"), secrets.fileKey);
    const original = randomBytes(5000);
    const { clinic, saved } = await clinicWithWorksheet(
      database.db,
      store,
      { name: "Backup Clinic", email: "b@clinic.test" },
      original,
    );
    await database.close();

    const { folder, manifest } = await backup(config, tempDir("backups"));
    expect(manifest.files).toHaveLength(1);

    // A new machine: an empty data directory, the key given separately.
    const target = tempDir("target");
    const restoredConfig = loadConfig({ DATA_DIR: target, FILE_ENCRYPTION_KEY: secrets.fileKey.toString("hex") });
    await restore(restoredConfig, folder);
    const restored = await openDatabase({ dataDir: target });
    const [row] = await restored.db.select().from(storedFiles).where(eq(storedFiles.id, saved.id));
    const [restoredClinic] = await restored.db.select().from(clinics).where(eq(clinics.id, clinic.id));
    expect(restoredClinic?.name).toBe("Backup Clinic");
    const restoredStore = new LocalFileStore(path.join(target, "files"), secrets.fileKey);
    expect((await restoredStore.get(row!.storageKey)).equals(original)).toBe(true);
    await restored.close();

    // Restoring over existing data is refused rather than mixing two databases.
    await expect(restore(restoredConfig, folder)).rejects.toThrow(/not empty/);
  });

  it("refuses a backup whose contents were altered", async () => {
    const source = tempDir("source");
    const database = await openDatabase({ dataDir: source });
    await database.close();
    const { folder } = await backup(loadConfig({ DATA_DIR: source }), tempDir("backups"));
    fs.appendFileSync(path.join(folder, "database.pglite.tar.gz"), "tampered");
    await expect(restore(loadConfig({ DATA_DIR: tempDir("target") }), folder)).rejects.toThrow(/checksum/);
  });

  it("warns about keeping the key, from the command line", async () => {
    const source = tempDir("source");
    await (await openDatabase({ dataDir: source })).close();
    const result = spawnSync("npx", ["tsx", "server/cli/backup.ts", tempDir("backups")], {
      env: { ...process.env, DATA_DIR: source, DATABASE_URL: "" },
      encoding: "utf8",
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Backup written to/);
    expect(result.stderr).toMatch(/WARNING: The backup does not contain the file encryption key/);
  });
});

describe("backup and restore with FILE_STORE=s3", () => {
  it("copies every object encrypted by its key, and restores them under the same keys into an empty bucket", async () => {
    // In a child process: the in-process s3rver cannot answer a second ListObjectsV2 page on Node's OpenSSL 3.
    const s3 = await startTestS3Process();
    try {
      const source = tempDir("s3-source");
      const config = loadConfig({ DATA_DIR: source, ...s3.env });
      const secrets = loadSecrets(source, {});
      const store = openFileStore(config, secrets.fileKey);
      const database = await openDatabase({ dataDir: source });
      const original = Buffer.concat([Buffer.from("PATIENT: Jane Doe, DOB 1950-01-01 "), randomBytes(5000)]);
      const { saved } = await clinicWithWorksheet(
        database.db,
        store,
        { name: "S3 Backup Clinic", email: "s3@clinic.test" },
        original,
      );
      await database.close();
      // More objects than one ListObjectsV2 page (1,000 keys): the backup must follow the continuation token.
      for (let batch = 0; batch < 210; batch++) {
        await Promise.all(Array.from({ length: 5 }, (_, i) => store.put(Buffer.from(`extra ${batch}-${i}`))));
      }
      const storedKeys = (await store.list()).map((file) => file.name);
      expect(storedKeys).toHaveLength(1051);

      const { folder, manifest } = await backup(config, tempDir("s3-backups"));
      expect(manifest.format).toBe(2);
      expect(manifest.files).toHaveLength(1051);
      const entry = manifest.files.find(
        (file) => file.path === `files/${saved.storageKey.slice(0, 2)}/${saved.storageKey}`,
      );
      expect(entry).toBeDefined();
      // The archive holds the object as stored: encrypted, not the worksheet's bytes.
      const archived = fs.readFileSync(path.join(folder, "objects", entry!.path));
      expect(archived.includes(Buffer.from("Jane Doe"))).toBe(false);
      expect(store.decrypt(archived).equals(original)).toBe(true);

      // Disaster: the bucket emptied and the database gone (a new, empty DATA_DIR).
      for (let i = 0; i < storedKeys.length; i += 5) {
        await Promise.all(storedKeys.slice(i, i + 5).map((name) => store.remove(name)));
      }
      expect(await store.list()).toHaveLength(0);
      const target = tempDir("s3-target");
      const restoredConfig = loadConfig({
        DATA_DIR: target,
        FILE_ENCRYPTION_KEY: secrets.fileKey.toString("hex"),
        ...s3.env,
      });
      await restore(restoredConfig, folder);

      expect((await store.list()).map((file) => file.name).sort()).toEqual([...storedKeys].sort());
      const restored = await openDatabase({ dataDir: target });
      const [row] = await restored.db.select().from(storedFiles).where(eq(storedFiles.id, saved.id));
      await restored.close();
      const restoredStore = openFileStore(restoredConfig, secrets.fileKey);
      expect((await restoredStore.get(row!.storageKey)).equals(original)).toBe(true);
      restoredStore.close?.();

      // Restoring into a bucket that already holds stored files is refused rather than mixing two installations.
      await expect(restore(loadConfig({ DATA_DIR: tempDir("s3-again"), ...s3.env }), folder)).rejects.toThrow(
        /empty bucket/,
      );
      store.close?.();
    } finally {
      await s3.close();
    }
  }, 180_000);

  it("refuses an object whose bytes were altered, before touching the database", async () => {
    const s3 = await startTestS3();
    try {
      const source = tempDir("s3-source");
      const config = loadConfig({ DATA_DIR: source, ...s3.env });
      const store = openFileStore(config, loadSecrets(source, {}).fileKey);
      await store.put(Buffer.from("a worksheet"));
      await (await openDatabase({ dataDir: source })).close();
      const { folder, manifest } = await backup(config, tempDir("s3-backups"));
      await Promise.all((await store.list()).map((file) => store.remove(file.name)));
      store.close?.();
      fs.appendFileSync(path.join(folder, "objects", manifest.files[0]!.path), "tampered");
      const target = tempDir("s3-target");
      await expect(restore(loadConfig({ DATA_DIR: target, ...s3.env }), folder)).rejects.toThrow(/checksum/);
      expect(fs.existsSync(path.join(target, "pgdata"))).toBe(false);
    } finally {
      await s3.close();
    }
  }, 180_000);
});

describe("backup and restore across file stores", () => {
  it("restores a local backup into an empty bucket, and that bucket's backup into a local data directory", async () => {
    const s3 = await startTestS3();
    try {
      const local = tempDir("local-source");
      const secrets = loadSecrets(local, {});
      const keyEnv = { FILE_ENCRYPTION_KEY: secrets.fileKey.toString("hex") };
      const database = await openDatabase({ dataDir: local });
      const original = randomBytes(3000);
      const { saved } = await clinicWithWorksheet(
        database.db,
        new LocalFileStore(path.join(local, "files"), secrets.fileKey),
        { name: "Moving Clinic", email: "move@clinic.test" },
        original,
      );
      await database.close();
      const fromDisk = await backup(loadConfig({ DATA_DIR: local }), tempDir("cross-backups"));
      expect(fromDisk.manifest.format).toBe(1);

      // Local files into the bucket: the stored_files row names the object again.
      const inBucketConfig = loadConfig({ DATA_DIR: tempDir("s3-target"), ...keyEnv, ...s3.env });
      await restore(inBucketConfig, fromDisk.folder);
      const bucket = openFileStore(inBucketConfig, secrets.fileKey);
      expect((await bucket.get(saved.storageKey)).equals(original)).toBe(true);

      // And back: the bucket's backup into a new local data directory.
      const fromBucket = await backup(inBucketConfig, tempDir("cross-backups"));
      expect(fromBucket.manifest.format).toBe(2);
      const localAgain = tempDir("local-target");
      await restore(loadConfig({ DATA_DIR: localAgain, ...keyEnv }), fromBucket.folder);
      const disk = new LocalFileStore(path.join(localAgain, "files"), secrets.fileKey);
      expect((await disk.get(saved.storageKey)).equals(original)).toBe(true);
      const restored = await openDatabase({ dataDir: localAgain });
      const [row] = await restored.db.select().from(storedFiles).where(eq(storedFiles.id, saved.id));
      expect(row?.storageKey).toBe(saved.storageKey);
      await restored.close();
      bucket.close?.();
    } finally {
      await s3.close();
    }
  }, 180_000);

  it("refuses an entry that is not a stored file's name before writing anything", async () => {
    const source = tempDir("source");
    await (await openDatabase({ dataDir: source })).close();
    const { folder, manifest } = await backup(loadConfig({ DATA_DIR: source }), tempDir("backups"));
    // A well-formed entry whose bytes match its checksum, but whose name climbs out of the files folder.
    const escaping = "../../outside.bin";
    const bytes = Buffer.from("not a stored file");
    fs.mkdirSync(path.join(folder, "files"), { recursive: true });
    fs.writeFileSync(path.join(folder, "files", escaping), bytes);
    manifest.files.push({ path: escaping, sha256: createHash("sha256").update(bytes).digest("hex"), bytes: 17 });
    fs.writeFileSync(path.join(folder, "manifest.json"), JSON.stringify(manifest));
    const target = tempDir("target");
    await expect(restore(loadConfig({ DATA_DIR: target }), folder)).rejects.toThrow(/Not a stored file's name/);
    expect(fs.existsSync(path.join(target, "pgdata"))).toBe(false);
  });
});

/** A new, empty database on the server of TEST_DATABASE_URL; dropped by the returned function. */
async function scratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sonoscribe_backup_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

describe.runIf(process.env.TEST_DATABASE_URL)("backup and restore on PostgreSQL", () => {
  it("round-trips the database with pg_dump and pg_restore, and the encrypted files", async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const sourceDb = await scratchDatabase(serverUrl);
    const targetDb = await scratchDatabase(serverUrl);
    try {
      const source = tempDir("pg-source");
      const config = loadConfig({ DATA_DIR: source, DATABASE_URL: sourceDb.url });
      const secrets = loadSecrets(source, {});
      const database = await openDatabase({ databaseUrl: sourceDb.url, dataDir: null });
      const [clinic] = await database.db
        .insert(clinics)
        .values({ name: "PG Backup Clinic", email: "pg@clinic.test" })
        .returning();
      const original = randomBytes(3000);
      const store = new LocalFileStore(path.join(source, "files"), secrets.fileKey);
      const saved = await saveFile(database.db, store, {
        clinicId: clinic!.id,
        kind: "logo",
        data: original,
        mimeType: "image/png",
      });
      await database.close();

      const { folder, manifest } = await backup(config, tempDir("pg-backups"));
      expect(manifest.database.kind).toBe("postgres");

      const target = tempDir("pg-target");
      await restore(loadConfig({ DATA_DIR: target, DATABASE_URL: targetDb.url }), folder);
      const restored = await openDatabase({ databaseUrl: targetDb.url, dataDir: null });
      const [restoredClinic] = await restored.db.select().from(clinics).where(eq(clinics.id, clinic!.id));
      const [row] = await restored.db.select().from(storedFiles).where(eq(storedFiles.id, saved.id));
      await restored.close();
      expect(restoredClinic?.name).toBe("PG Backup Clinic");
      const restoredStore = new LocalFileStore(path.join(target, "files"), secrets.fileKey);
      expect((await restoredStore.get(row!.storageKey)).equals(original)).toBe(true);

      // An embedded-database configuration cannot take a PostgreSQL backup.
      await expect(restore(loadConfig({ DATA_DIR: tempDir("pg-wrong") }), folder)).rejects.toThrow(/DATABASE_URL/);
    } finally {
      await sourceDb.drop();
      await targetDb.drop();
    }
  });

  it("round-trips PostgreSQL and the bucket together (FILE_STORE=s3, the several-machine shape)", async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const sourceDb = await scratchDatabase(serverUrl);
    const targetDb = await scratchDatabase(serverUrl);
    const s3 = await startTestS3();
    try {
      const source = tempDir("pg-s3-source");
      const config = loadConfig({ DATA_DIR: source, DATABASE_URL: sourceDb.url, ...s3.env });
      const secrets = loadSecrets(source, {});
      const store = openFileStore(config, secrets.fileKey);
      const database = await openDatabase({ databaseUrl: sourceDb.url, dataDir: null });
      const original = randomBytes(4000);
      const { saved } = await clinicWithWorksheet(
        database.db,
        store,
        { name: "PG S3 Clinic", email: "pgs3@clinic.test" },
        original,
      );
      await database.close();

      const { folder, manifest } = await backup(config, tempDir("pg-s3-backups"));
      expect(manifest.database.kind).toBe("postgres");
      expect(manifest.format).toBe(2);
      await store.remove(saved.storageKey);
      store.close?.();

      const restoredConfig = loadConfig({
        DATA_DIR: tempDir("pg-s3-target"),
        DATABASE_URL: targetDb.url,
        FILE_ENCRYPTION_KEY: secrets.fileKey.toString("hex"),
        ...s3.env,
      });
      await restore(restoredConfig, folder);
      const restored = await openDatabase({ databaseUrl: targetDb.url, dataDir: null });
      const [row] = await restored.db.select().from(storedFiles).where(eq(storedFiles.id, saved.id));
      await restored.close();
      const restoredStore = openFileStore(restoredConfig, secrets.fileKey);
      expect((await restoredStore.get(row!.storageKey)).equals(original)).toBe(true);
      restoredStore.close?.();
    } finally {
      await s3.close();
      await sourceDb.drop();
      await targetDb.drop();
    }
  });
});
