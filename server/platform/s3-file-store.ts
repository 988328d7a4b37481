import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import type { S3Config } from "../config";
import {
  assertStorageKey,
  type FileStore,
  type ListedFile,
  newStoredFile,
  Sealer,
  type StoredFile,
} from "./file-store";

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage...), encrypted by the server before upload exactly
 * like the local store: the bucket never sees a clinic's plain bytes, and any web or worker process reads what any
 * other wrote. A put is one request, so an object is there whole or not at all (no temporary names). Objects are
 * keyed `files/xx/<uuid>.bin` like the local folders.
 */
export class S3FileStore implements FileStore {
  /** Null for a store that only copies objects as stored (backup and restore never hold the key). */
  private readonly sealer: Sealer | null;
  /** The SDK loads with the first S3 store, so a server on local files never holds it (20 MB, issue 30). */
  private readonly sdk = import("@aws-sdk/client-s3");
  private readonly client: Promise<S3Client>;
  private readonly bucket: string;

  constructor(config: S3Config, key: Buffer | null) {
    this.sealer = key ? new Sealer(key) : null;
    this.bucket = config.bucket;
    this.client = this.sdk.then(
      ({ S3Client }) =>
        new S3Client({
          region: config.region,
          ...(config.endpoint ? { endpoint: config.endpoint } : {}),
          forcePathStyle: config.forcePathStyle,
          credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
          // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's default trailing
          // CRC32 on every upload. Integrity is kept by the authenticated encryption (a changed byte fails to open).
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
          maxAttempts: 3,
        }),
    );
  }

  async put(plain: Buffer): Promise<StoredFile> {
    const [client, sdk] = await Promise.all([this.client, this.sdk]);
    const stored = newStoredFile(plain);
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: objectKey(stored.storageKey),
        Body: this.encrypt(plain),
        ContentType: "application/octet-stream",
      }),
    );
    return stored;
  }

  async get(storageKey: string): Promise<Buffer> {
    const [client, sdk] = await Promise.all([this.client, this.sdk]);
    assertStorageKey(storageKey);
    const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: objectKey(storageKey) }));
    if (!answer.Body) throw new Error(`Stored file ${storageKey} has no content`);
    return this.decrypt(Buffer.from(await answer.Body.transformToByteArray()));
  }

  async remove(name: string): Promise<void> {
    const [client, sdk] = await Promise.all([this.client, this.sdk]);
    assertStorageKey(name);
    // Deleting a missing key succeeds in S3.
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey(name) }));
  }

  async list(): Promise<ListedFile[]> {
    const [client, sdk] = await Promise.all([this.client, this.sdk]);
    const files: ListedFile[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: PREFIX, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const name = object.Key?.split("/").at(-1);
        if (!name || !/^[0-9a-f-]{36}\.bin$/.test(name)) continue;
        files.push({ name, modifiedMs: object.LastModified?.getTime() ?? Date.now() });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return files;
  }

  /**
   * Every object key this store wrote (`files/xx/<uuid>.bin`), page by page through ListObjectsV2's continuation
   * token: for backup, which copies the objects as stored. Other keys under the prefix are not the store's.
   */
  async *objectKeys(): AsyncGenerator<{ key: string; bytes: number }> {
    const [client, sdk] = await Promise.all([this.client, this.sdk]);
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: PREFIX, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && isObjectKey(object.Key)) yield { key: object.Key, bytes: object.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** An object's stored (encrypted) bytes as a stream, never decrypted: for backup. */
  async readObject(key: string): Promise<Readable> {
    const [client, sdk] = await Promise.all([this.client, this.sdk]);
    if (!isObjectKey(key)) throw new Error(`Not a stored file's object key: ${key}`);
    const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!answer.Body) throw new Error(`Stored object ${key} has no content`);
    return answer.Body as Readable;
  }

  /** Puts already encrypted bytes back under their key, as stored: for restore. */
  async writeObject(key: string, body: Readable, bytes: number): Promise<void> {
    const [client, sdk] = await Promise.all([this.client, this.sdk]);
    if (!isObjectKey(key)) throw new Error(`Not a stored file's object key: ${key}`);
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentLength: bytes,
        ContentType: "application/octet-stream",
      }),
    );
  }

  encrypt(plain: Buffer): Buffer {
    return this.sealing().encrypt(plain);
  }

  decrypt(sealed: Buffer): Buffer {
    return this.sealing().decrypt(sealed);
  }

  private sealing(): Sealer {
    if (!this.sealer) throw new Error("This S3 store was opened without the file encryption key");
    return this.sealer;
  }

  get location(): string {
    return `s3://${this.bucket}/${PREFIX}`;
  }

  /** Closes the client's sockets (server shutdown, tests). */
  close(): void {
    void this.client.then((client) => client.destroy());
  }
}

const PREFIX = "files/";
/** The bucket key of a stored file (restore puts a local backup's files back under it). */
export const objectKey = (storageKey: string) => `${PREFIX}${storageKey.slice(0, 2)}/${storageKey}`;
/** The shape of every key `put` writes; a backup's keys are checked against it before they name a file or object. */
export const isObjectKey = (key: string) => /^files\/[0-9a-f]{2}\/[0-9a-f-]{36}\.bin$/.test(key);
