import { api } from "./api";

/**
 * Unsaved edits kept in this browser so that an expired session, a closed tab or a crash loses nothing.
 * They hold patient data, so they are stored only encrypted (AES-GCM) with a key the server gives the
 * signed-in user (GET /api/auth/local-draft-key), and all of them are removed at sign-out. Without Web
 * Crypto (a page served over plain http from another machine) nothing is kept: never in clear text.
 */
const PREFIX = "sonoscribe.unsaved.";
/** Edits older than this are dropped unread: nobody expects last month's typing back. */
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export type KeptEdits<T> = { base: string; savedAt: number; value: T };

const storageKey = (userId: string, name: string) => `${PREFIX}${userId}.${name}`;

let keyFor: { userId: string; key: Promise<CryptoKey> } | null = null;

function cryptoKey(userId: string): Promise<CryptoKey> {
  if (keyFor?.userId !== userId) {
    // The contract is loaded with the key: zod stays out of the first page load's budget.
    const key = import("../../../domain/contracts/auth")
      .then(({ localDraftKey }) => api.get("/api/auth/local-draft-key", localDraftKey))
      .then(({ key: raw }) =>
        crypto.subtle.importKey("raw", fromBase64Url(raw), "AES-GCM", false, ["encrypt", "decrypt"]),
      );
    keyFor = { userId, key };
    // A failed fetch is tried again next time instead of being remembered.
    key.catch(() => {
      if (keyFor?.key === key) keyFor = null;
    });
  }
  return keyFor.key;
}

export const canKeepEdits = () => typeof crypto !== "undefined" && Boolean(crypto.subtle);

/**
 * Keeps `value` (edits made on version `base` of the thing named) unless `stillWanted` says otherwise once
 * the encryption is done: a save or a discard in the meantime must not be undone by a late write.
 */
export async function keepEdits<T>(
  userId: string,
  name: string,
  kept: { base: string; value: T },
  stillWanted: () => boolean,
): Promise<void> {
  if (!canKeepEdits()) return;
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify({ ...kept, savedAt: Date.now() }));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await cryptoKey(userId), plain);
  if (stillWanted())
    localStorage.setItem(storageKey(userId, name), `${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`);
}

/** The kept edits, or null when there are none, they are too old, or they cannot be opened (another key). */
export async function readKeptEdits<T>(userId: string, name: string): Promise<KeptEdits<T> | null> {
  const stored = canKeepEdits() ? localStorage.getItem(storageKey(userId, name)) : null;
  if (!stored) return null;
  try {
    const [iv, data] = stored.split(".");
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(iv ?? "") },
      await cryptoKey(userId),
      fromBase64Url(data ?? ""),
    );
    const kept = JSON.parse(new TextDecoder().decode(plain)) as KeptEdits<T>;
    if (Date.now() - kept.savedAt <= MAX_AGE_MS) return kept;
  } catch {
    // Unreadable (another server's key, a damaged entry): nothing to offer.
  }
  forgetEdits(userId, name);
  return null;
}

export function forgetEdits(userId: string, name: string): void {
  localStorage.removeItem(storageKey(userId, name));
}

/** The names (e.g. "report:12") this user has edits kept under; no decryption needed. */
export function keptEditNames(userId: string): string[] {
  const prefix = `${PREFIX}${userId}.`;
  return Object.keys(localStorage)
    .filter((key) => key.startsWith(prefix))
    .map((key) => key.slice(prefix.length));
}

/** Sign-out leaves no patient data behind in this browser, whoever's it was. */
export function forgetAllEdits(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  keyFor = null;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
