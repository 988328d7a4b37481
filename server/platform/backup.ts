import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import type { Config } from "../config";
import { acquireDirectoryLock } from "../db/directory-lock";
import { GENESIS } from "./audit";
import { anchorPath, writeAnchor } from "./audit-anchor";
import { isObjectKey, objectKey, S3FileStore } from "./s3-file-store";
import { loadSecrets } from "./secrets";

const run = promisify(execFile);

export const KEY_WARNING =
  "The backup does not contain the file encryption key. Keep DATA_DIR/secrets/file-encryption-key (or FILE_ENCRYPTION_KEY) " +
  "in a separate safe place: without it the backed-up worksheet files, signatures and logos cannot be read. " +
  "Keep DATA_DIR/secrets/audit-key (or AUDIT_KEY) with it: the restored audit chain verifies only with that key.";

type Manifest = {
  /** 1: the files of DATA_DIR/files under `files/`; 2: the objects of an S3 bucket under `objects/`. */
  format: 1 | 2;
  createdAt: string;
  database: { kind: "pglite" | "postgres"; file: string; sha256: string };
  /** Only in format 2: the bucket the objects came from (FILE_STORE=s3). */
  fileStore?: { kind: "s3"; bucket: string };
  /** Format 1: paths under DATA_DIR/files; format 2: the objects' keys, exactly as stored (still encrypted). */
  files: Array<{ path: string; sha256: string; bytes: number }>;
  /** First audit event hashed with the key (earlier ones keep plain hashes); absent in older backups. */
  auditKeyedFromId?: number;
};

/** The anchor's keyedFromId without checking its signature: not secret, and restore re-anchors anyway. */
function keyedFromId(dataDir: string): number | undefined {
  const file = anchorPath(dataDir);
  if (!fs.existsSync(file)) return undefined;
  return Number((JSON.parse(fs.readFileSync(file, "utf8")) as { keyedFromId: number }).keyedFromId);
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** Copies a stream into a new file (mode 600), hashing it on the way. */
async function streamToFile(source: Readable, target: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        bytes += chunk.length;
        yield chunk;
      }
    },
    fs.createWriteStream(target, { mode: 0o600 }),
  );
  return { sha256: hash.digest("hex"), bytes };
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Copies every stored object of the bucket, page by page, into `folder/objects/<key>` as stored: encrypted, never
 * opened (the backup holds no key). One object at a time, streamed.
 */
async function backupObjects(store: S3FileStore, folder: string): Promise<Manifest["files"]> {
  const files: Manifest["files"] = [];
  for await (const { key } of store.objectKeys()) {
    const copied = await streamToFile(await store.readObject(key), path.join(folder, "objects", key));
    files.push({ path: key, ...copied });
  }
  return files;
}

function listFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.name.endsWith(".tmp"))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

/**
 * Writes the database and the encrypted file store into a new folder under `targetDir`.
 * The embedded database is copied with the server stopped (its directory lock is taken here).
 */
export async function backup(config: Config, targetDir: string): Promise<{ folder: string; manifest: Manifest }> {
  const folder = path.join(
    path.resolve(targetDir),
    `sonoscribe-backup-${new Date().toISOString().replace(/[:.]/g, "-")}`,
  );
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const database = config.databaseUrl
    ? await dumpPostgres(config.databaseUrl, path.join(folder, "database.pgdump"))
    : await dumpPglite(path.join(config.dataDir, "pgdata"), path.join(folder, "database.pglite.tar.gz"));

  if (config.fileStore.kind === "s3") {
    const store = new S3FileStore(config.fileStore.s3, null);
    try {
      const manifest: Manifest = {
        format: 2,
        createdAt: new Date().toISOString(),
        database,
        fileStore: { kind: "s3", bucket: config.fileStore.s3.bucket },
        files: await backupObjects(store, folder),
        auditKeyedFromId: keyedFromId(config.dataDir),
      };
      fs.writeFileSync(path.join(folder, "manifest.json"), JSON.stringify(manifest, null, 2));
      return { folder, manifest };
    } finally {
      store.close();
    }
  }

  const filesRoot = path.join(config.dataDir, "files");
  const files = listFiles(filesRoot).map((relative) => {
    const data = fs.readFileSync(path.join(filesRoot, relative));
    const target = path.join(folder, "files", relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, data, { mode: 0o600 });
    return { path: relative, sha256: sha256(data), bytes: data.length };
  });
  const manifest: Manifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database,
    files,
    auditKeyedFromId: keyedFromId(config.dataDir),
  };
  fs.writeFileSync(path.join(folder, "manifest.json"), JSON.stringify(manifest, null, 2));
  return { folder, manifest };
}

async function dumpPglite(pgDir: string, target: string): Promise<Manifest["database"]> {
  if (!fs.existsSync(pgDir)) throw new Error(`No embedded database at ${pgDir}`);
  const release = acquireDirectoryLock(pgDir);
  try {
    const db = await PGlite.create({ dataDir: pgDir });
    const dump = Buffer.from(await (await db.dumpDataDir("gzip")).arrayBuffer());
    await db.close();
    fs.writeFileSync(target, dump, { mode: 0o600 });
    return { kind: "pglite", file: path.basename(target), sha256: sha256(dump) };
  } finally {
    release();
  }
}

async function dumpPostgres(url: string, target: string): Promise<Manifest["database"]> {
  await run("pg_dump", ["--format=custom", "--no-owner", `--file=${target}`, url]);
  return { kind: "postgres", file: path.basename(target), sha256: sha256(fs.readFileSync(target)) };
}

/**
 * The storage key a manifest entry names: `xx/<key>` of DATA_DIR/files (format 1) or the object key `files/xx/<key>`
 * (format 2), checked against the store's own shape before it names a file in the folder, on disk or in a bucket.
 * Both stores seal files alike with the same key, so either backup restores into either store.
 */
function storageKeyOf(manifest: Manifest, entryPath: string): string {
  const relative = manifest.format === 1 ? entryPath : isObjectKey(entryPath) ? entryPath.slice("files/".length) : "";
  const match = /^([0-9a-f]{2})\/([0-9a-f-]{36}\.bin)$/.exec(relative);
  if (!match || !match[2]!.startsWith(match[1]!)) throw new Error(`Not a stored file's name: ${entryPath}`);
  return match[2]!;
}

/** Where the backup folder holds an entry's bytes, as stored (encrypted). */
const archivedPath = (folder: string, manifest: Manifest, entryPath: string) =>
  path.join(folder, manifest.format === 2 ? "objects" : "files", entryPath);

/**
 * Restores a backup folder into the configured (empty) database and file store, checking every hash first. A backup
 * of either store (local files or an S3 bucket) restores into either, so a clinic can move between them.
 */
export async function restore(config: Config, backupFolder: string): Promise<Manifest> {
  const folder = path.resolve(backupFolder);
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, "manifest.json"), "utf8")) as Manifest;
  if (manifest.format !== 1 && manifest.format !== 2) throw new Error("Unknown backup format");
  const dump = fs.readFileSync(path.join(folder, manifest.database.file));
  if (sha256(dump) !== manifest.database.sha256) throw new Error("The database dump does not match its checksum");
  for (const file of manifest.files) {
    storageKeyOf(manifest, file.path);
    if ((await sha256OfFile(archivedPath(folder, manifest, file.path))) !== file.sha256) {
      throw new Error(`The file ${file.path} does not match its checksum`);
    }
  }
  const store = config.fileStore.kind === "s3" ? new S3FileStore(config.fileStore.s3, null) : null;
  try {
    // Like the data directory: restoring into a store that holds files would mix two installations.
    if (store) {
      for await (const { key } of store.objectKeys()) {
        throw new Error(`The bucket already holds stored files (${key}): restore into an empty bucket`);
      }
    } else if (listFiles(path.join(config.dataDir, "files")).length > 0) {
      throw new Error(`${path.join(config.dataDir, "files")} is not empty: restore into a new DATA_DIR`);
    }
    await restoreDatabaseAndFiles(config, folder, manifest, dump, store);
  } finally {
    store?.close();
  }
  // The restored chain is older than any anchor: walk it again from the start at the next server start.
  if (manifest.auditKeyedFromId !== undefined) {
    const { auditKey } = loadSecrets(config.dataDir, config);
    writeAnchor(config.dataDir, auditKey, {
      keyedFromId: manifest.auditKeyedFromId,
      headId: 0,
      headHash: GENESIS,
      count: 0,
    });
  }
  return manifest;
}

async function restoreDatabaseAndFiles(
  config: Config,
  folder: string,
  manifest: Manifest,
  dump: Buffer<ArrayBuffer>,
  store: S3FileStore | null,
): Promise<void> {
  if (manifest.database.kind === "pglite") {
    if (config.databaseUrl) throw new Error("This backup is of an embedded database: unset DATABASE_URL to restore it");
    const pgDir = path.join(config.dataDir, "pgdata");
    if (fs.existsSync(pgDir) && fs.readdirSync(pgDir).length > 0) {
      throw new Error(`${pgDir} is not empty: restore into a new DATA_DIR`);
    }
    fs.mkdirSync(pgDir, { recursive: true });
    const release = acquireDirectoryLock(pgDir);
    try {
      const db = await PGlite.create({ dataDir: pgDir, loadDataDir: new Blob([dump]) });
      await db.close();
    } finally {
      release();
    }
  } else {
    if (!config.databaseUrl)
      throw new Error("This backup is of a PostgreSQL database: set DATABASE_URL to an empty database");
    await run("pg_restore", [
      "--no-owner",
      "--exit-on-error",
      `--dbname=${config.databaseUrl}`,
      path.join(folder, manifest.database.file),
    ]);
  }

  // Each file back under its own storage key, as stored, so the database's stored_files rows name it again.
  const filesRoot = path.join(config.dataDir, "files");
  for (const file of manifest.files) {
    const storageKey = storageKeyOf(manifest, file.path);
    const source = archivedPath(folder, manifest, file.path);
    if (store) {
      await store.writeObject(objectKey(storageKey), fs.createReadStream(source), file.bytes);
    } else {
      const target = path.join(filesRoot, storageKey.slice(0, 2), storageKey);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(source, target);
    }
  }
}
