import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Files at rest are AES-256-GCM encrypted: [12-byte IV][16-byte tag][ciphertext].
 * Writes go to a temporary name and are renamed, so a crash never leaves a half-written file.
 */
export class FileStore {
  constructor(
    private readonly root: string,
    private readonly key: Buffer,
  ) {
    if (key.length !== 32) throw new Error("The file encryption key must be 32 bytes");
  }

  async put(plain: Buffer): Promise<{ storageKey: string; sha256: string; byteSize: number }> {
    const storageKey = `${randomUUID()}.bin`;
    const target = this.pathOf(storageKey);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    await fs.writeFile(temporary, this.encrypt(plain), { mode: 0o600 });
    await fs.rename(temporary, target);
    return { storageKey, sha256: createHash("sha256").update(plain).digest("hex"), byteSize: plain.length };
  }

  async get(storageKey: string): Promise<Buffer> {
    return this.decrypt(await fs.readFile(this.pathOf(storageKey)));
  }

  async remove(storageKey: string): Promise<void> {
    await fs.rm(this.pathOf(storageKey), { force: true });
  }

  /** Every stored file (and temporary leftover) with its age, for the start-up sweep. */
  async list(): Promise<Array<{ name: string; path: string; modifiedMs: number }>> {
    const entries = await fs.readdir(this.root, { withFileTypes: true, recursive: true }).catch(() => []);
    return Promise.all(
      entries
        .filter((entry) => entry.isFile())
        .map(async (entry) => {
          const full = path.join(entry.parentPath, entry.name);
          return { name: entry.name, path: full, modifiedMs: (await fs.stat(full)).mtimeMs };
        }),
    );
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

  get directory(): string {
    return this.root;
  }

  private pathOf(storageKey: string): string {
    if (!/^[0-9a-f-]{36}\.bin$/.test(storageKey)) throw new Error("Invalid storage key");
    return path.join(this.root, storageKey.slice(0, 2), storageKey);
  }
}
