import type { Queryable } from "../../db/client";
import type { FileStore } from "../../platform/file-store";
import { allStorageKeys, findClinicFile, findClinicFiles, insertStoredFile } from "./files.repository";

export type NewFile = {
  clinicId: number | null;
  kind: string;
  data: Buffer;
  mimeType: string;
  originalName?: string;
  createdBy?: string;
};

export const fileUrl = (id: number) => `/api/files/${id}`;

/** Parses "/api/files/12" back to 12; anything else is not one of ours. */
export function fileIdFromUrl(url: string | null | undefined): number | null {
  const match = url?.match(/^\/api\/files\/(\d+)$/);
  return match ? Number(match[1]) : null;
}

/**
 * Encrypts the bytes into the store, then records them. The bytes are written first: a crash in
 * between leaves an unreferenced file (swept at start-up by sweepUnreferencedFiles), never a row that points at nothing.
 */
export async function saveFile(db: Queryable, store: FileStore, file: NewFile) {
  const stored = await store.put(file.data);
  const row = await insertStoredFile(db, {
    clinicId: file.clinicId,
    kind: file.kind,
    storageKey: stored.storageKey,
    mimeType: file.mimeType,
    byteSize: stored.byteSize,
    sha256: stored.sha256,
    originalName: file.originalName,
    createdBy: file.createdBy,
  });
  return { ...row, url: fileUrl(row.id) };
}

/** A clinic's file, or undefined for a file of another clinic (callers answer 404). */
export async function readClinicFile(db: Queryable, store: FileStore, clinicId: number, id: number) {
  const row = await findClinicFile(db, clinicId, id);
  if (!row) return undefined;
  return { row, data: await readFileBytes(store, row) };
}

/** A clinic's file row without its bytes (undefined for another clinic's): its SHA-256 names the content. */
export function findClinicFileRow(db: Queryable, clinicId: number, id: number) {
  return findClinicFile(db, clinicId, id);
}

/** A clinic's file rows among ids, in one query (the logo's and signature's of a document). */
export function findClinicFileRows(db: Queryable, clinicId: number, ids: number[]) {
  return findClinicFiles(db, clinicId, ids);
}

/** The decrypted bytes of a file row. */
export function readFileBytes(store: FileStore, row: { storageKey: string }): Promise<Buffer> {
  return store.get(row.storageKey);
}

/**
 * Removes files that no row points at: what a crash between writing the bytes and committing the row
 * leaves behind (see saveFile), and temporary files of writes cut short. Only files older than `graceMs` go, so uploads in flight on another
 * instance are never touched. Run at start-up.
 */
export async function sweepUnreferencedFiles(db: Queryable, store: FileStore, graceMs = 3_600_000): Promise<number> {
  const referenced = await allStorageKeys(db);
  const cutoff = Date.now() - graceMs;
  let removed = 0;
  for (const file of await store.list()) {
    if (referenced.has(file.name) || file.modifiedMs > cutoff) continue;
    await store.remove(file.name);
    removed++;
  }
  return removed;
}
