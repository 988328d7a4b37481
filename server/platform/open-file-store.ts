import path from "node:path";
import type { Config } from "../config";
import { type FileStore, LocalFileStore } from "./file-store";
import { S3FileStore } from "./s3-file-store";

/** The file store the config names (FILE_STORE): DATA_DIR/files or the S3 bucket, both sealed with `key`. */
export function openFileStore(config: Pick<Config, "dataDir" | "fileStore">, key: Buffer): FileStore {
  return config.fileStore.kind === "s3"
    ? new S3FileStore(config.fileStore.s3, key)
    : new LocalFileStore(path.join(config.dataDir, "files"), key);
}
