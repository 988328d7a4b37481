import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** A JSON answer as bytes, with its compressed forms made on first demand. */
export class EncodedJson {
  private br: Buffer | undefined;
  private gzip: Buffer | undefined;
  constructor(readonly json: Buffer) {}

  /** The bytes for an encoding; below the threshold compression saves too little to be worth it. */
  body(encoding: Encoding, threshold: number): { bytes: Buffer; encoding: Encoding } {
    if (encoding === "identity" || this.json.length < threshold) return { bytes: this.json, encoding: "identity" };
    if (encoding === "br") {
      // Quality 4, as @fastify/compress uses: 11 costs far more CPU for a few percent.
      this.br ??= brotliCompressSync(this.json, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
      return { bytes: this.br, encoding };
    }
    this.gzip ??= gzipSync(this.json);
    return { bytes: this.gzip, encoding };
  }

  /** An estimate of the memory held, for the memo's budget (compressed forms are a fraction of the JSON). */
  get size(): number {
    return this.json.length + (this.br?.length ?? 0) + (this.gzip?.length ?? 0) + 200;
  }
}

export type Encoding = "br" | "gzip" | "identity";

/** As @fastify/compress is configured in app.ts: smaller answers go uncompressed. */
const COMPRESS_THRESHOLD = 1024;

/** The client's preferred encoding among the ones offered here (br, then gzip), ignoring q=0 entries. */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  let gzip = false;
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    if (params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) continue;
    const token = name.trim();
    if (token === "br") return "br";
    if (token === "gzip" || token === "x-gzip" || token === "*") gzip = true;
  }
  return gzip ? "gzip" : "identity";
}

/**
 * A bounded in-process memo of encoded answers, least recently used out first. Keys must carry whatever
 * makes an answer exact (for report lists: clinic, the database's data version, the normalized query), so
 * an entry is never stale, only unused; the budget is on bytes, not entries. Concurrent misses of one key
 * share one computation.
 */
export class ResponseMemo {
  private readonly entries = new Map<string, EncodedJson>();
  private readonly pending = new Map<string, Promise<EncodedJson>>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  async get(key: string, produce: () => Promise<EncodedJson>): Promise<EncodedJson> {
    if (this.maxBytes <= 0) return produce();
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks the entry as recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const running = this.pending.get(key);
    if (running) return running;
    const promise = produce().then(
      (value) => {
        this.pending.delete(key);
        this.store(key, value);
        return value;
      },
      (error: unknown) => {
        this.pending.delete(key);
        throw error;
      },
    );
    this.pending.set(key, promise);
    return promise;
  }

  /** The bytes to send for a client's Accept-Encoding; compressing a kept entry counts towards the budget. */
  body(key: string, value: EncodedJson, acceptEncoding: string | undefined): { bytes: Buffer; encoding: Encoding } {
    const before = value.size;
    const result = value.body(negotiateEncoding(acceptEncoding), COMPRESS_THRESHOLD);
    if (value.size !== before && this.entries.get(key) === value) {
      this.bytes += value.size - before;
      this.evict();
    }
    return result;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, value: EncodedJson): void {
    if (value.size > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) this.bytes -= old.size;
    this.entries.delete(key);
    this.entries.set(key, value);
    this.bytes += value.size;
    this.evict();
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= entry.size;
    }
  }
}
