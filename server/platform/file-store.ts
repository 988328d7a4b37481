import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

const IV_BYTES = 12;
const TAG_BYTES = 16;

export type StoredFile = { storageKey: string; sha256: string; byteSize: number };
/** A stored object, or a leftover of an interrupted write, with its age: what the sweep looks at. */
export type ListedFile = { name: string; modifiedMs: number };

/**
 * Where uploaded files live (decision 022): the local disk (the embedded default) or S3-compatible object storage
 * (FILE_STORE=s3). Either way the server encrypts every file before it leaves the process: AES-256-GCM,
 * [12-byte IV][16-byte tag][ciphertext], with the key in DATA_DIR/secrets or FILE_ENCRYPTION_KEY.
 */
export interface FileStore {
  /** Stores the bytes under a new random key; a failed or interrupted write leaves no readable object. */
  put(plain: Buffer): Promise<StoredFile>;
  get(storageKey: string): Promise<Buffer>;
  /** Removes a stored file or a leftover the list named; removing what is not there is not an error. */
  remove(name: string): Promise<void>;
  /** Every stored object (and leftover) with its age, for the sweep of unreferenced files. */
  list(): Promise<ListedFile[]>;
  /** Seals small secrets (TOTP secrets, delivery credentials) with the same key. */
  encrypt(plain: Buffer): Buffer;
  decrypt(sealed: Buffer): Buffer;
  /** Where the files are, for the operator's log line. */
  readonly location: string;
  /** Lets go of connections (server shutdown). */
  close?(): void;
}

/** The AES-256-GCM sealing both stores share. */
export class Sealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("The file encryption key must be 32 bytes");
  }

  encrypt(plain: Buffer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  decrypt(sealed: Buffer): Buffer {
    const iv = sealed.subarray(0, IV_BYTES);
    const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  }
}

/** A new random storage key and the facts about the plain bytes stored under it. */
export const newStoredFile = (plain: Buffer): StoredFile => ({
  storageKey: `${randomUUID()}.bin`,
  sha256: createHash("sha256").update(plain).digest("hex"),
  byteSize: plain.length,
});

const STORAGE_KEY = /^[0-9a-f-]{36}\.bin$/;
/** A stored key, or the temporary name a local write used before its rename. */
const LOCAL_NAME = /^[0-9a-f-]{36}\.bin(\.\d+\.tmp)?$/;

export function assertStorageKey(storageKey: string): void {
  if (!STORAGE_KEY.test(storageKey)) throw new Error("Invalid storage key");
}

/**
 * Files on the local disk under DATA_DIR/files/xx/. Writes go to a temporary name and are renamed, so a crash never
 * leaves a half-written file.
 */
export class LocalFileStore implements FileStore {
  private readonly sealer: Sealer;

  constructor(
    private readonly root: string,
    key: Buffer,
  ) {
    this.sealer = new Sealer(key);
  }

  async put(plain: Buffer): Promise<StoredFile> {
    const stored = newStoredFile(plain);
    const target = this.pathOf(stored.storageKey);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    await fs.writeFile(temporary, this.encrypt(plain), { mode: 0o600 });
    await fs.rename(temporary, target);
    return stored;
  }

  async get(storageKey: string): Promise<Buffer> {
    assertStorageKey(storageKey);
    return this.decrypt(await fs.readFile(this.pathOf(storageKey)));
  }

  async remove(name: string): Promise<void> {
    await fs.rm(this.pathOf(name), { force: true });
  }

  async list(): Promise<ListedFile[]> {
    const entries = await fs.readdir(this.root, { withFileTypes: true, recursive: true }).catch(() => []);
    return Promise.all(
      entries
        .filter((entry) => entry.isFile() && LOCAL_NAME.test(entry.name))
        .map(async (entry) => ({
          name: entry.name,
          modifiedMs: (await fs.stat(path.join(entry.parentPath, entry.name))).mtimeMs,
        })),
    );
  }

  encrypt(plain: Buffer): Buffer {
    return this.sealer.encrypt(plain);
  }

  decrypt(sealed: Buffer): Buffer {
    return this.sealer.decrypt(sealed);
  }

  get location(): string {
    return this.root;
  }

  /** The folder the files are in (backups copy it). */
  get directory(): string {
    return this.root;
  }

  private pathOf(name: string): string {
    if (!LOCAL_NAME.test(name)) throw new Error("Invalid storage key");
    return path.join(this.root, name.slice(0, 2), name);
  }
}
