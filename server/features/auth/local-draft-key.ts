import { createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * Unsaved editor text is kept in the browser encrypted with a key only the signed-in user can fetch, so a
 * session that expires mid-sentence loses nothing and a shared computer holds nothing readable. The key is
 * per user and stable across sessions and restarts (derived from the server's file key, never stored), so
 * the same user can open what they typed after signing in again.
 */
export class LocalDraftKeys {
  private constructor(private readonly secret: Buffer) {}

  /** Key separation from the file-encryption key by HKDF with a purpose of its own. */
  static fromFileKey(fileKey: Buffer): LocalDraftKeys {
    return new LocalDraftKeys(
      Buffer.from(hkdfSync("sha256", fileKey, Buffer.alloc(0), "sonoscribe local drafts v1", 32)),
    );
  }

  /** Tests and API-only apps: a key that lives as long as the process. */
  static ephemeral(): LocalDraftKeys {
    return new LocalDraftKeys(randomBytes(32));
  }

  /** A 256-bit AES key for this user, base64url. */
  forUser(userId: string): string {
    return createHmac("sha256", this.secret).update(`user:${userId}`).digest("base64url");
  }
}
