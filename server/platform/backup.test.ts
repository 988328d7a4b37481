import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { clinics, storedFiles } from "../db/schema";
import { saveFile } from "../features/files/files.service";
import { backup, restore } from "./backup";
import { FileStore } from "./file-store";
import { loadSecrets } from "./secrets";

const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `sonoscribe-${name}-`));

describe("backup and restore", () => {
  it("round-trips the embedded database and the encrypted files", async () => {
    const source = tempDir("source");
    const config = loadConfig({ DATA_DIR: source });
    const secrets = loadSecrets(source, {});
    const database = await openDatabase({ dataDir: source });
    const store = new FileStore(path.join(source, "files"), secrets.fileKey);
    const [clinic] = await database.db
      .insert(clinics)
      .values({ name: "Backup Clinic", email: "b@clinic.test" })
      .returning();
    const original = randomBytes(5000);
    const saved = await saveFile(database.db, store, {
      clinicId: clinic!.id,
      kind: "worksheet",
      data: original,
      mimeType: "image/png",
    });
    await database.close();

    const { folder, manifest } = await backup(config, tempDir("backups"));
    expect(manifest.files).toHaveLength(1);

    // A new machine: an empty data directory, the key given separately.
    const target = tempDir("target");
    const restoredConfig = loadConfig({ DATA_DIR: target, FILE_ENCRYPTION_KEY: secrets.fileKey.toString("hex") });
    await restore(restoredConfig, folder);
    const restored = await openDatabase({ dataDir: target });
    const [row] = await restored.db.select().from(storedFiles).where(eq(storedFiles.id, saved.id));
    const [restoredClinic] = await restored.db.select().from(clinics).where(eq(clinics.id, clinic!.id));
    expect(restoredClinic?.name).toBe("Backup Clinic");
    const restoredStore = new FileStore(path.join(target, "files"), secrets.fileKey);
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
