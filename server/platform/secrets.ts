import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export type Secrets = { fileKey: Buffer; auditKey: Buffer };

/**
 * Secrets come from the environment or, in embedded mode, from DATA_DIR/secrets/ where they are generated
 * once with mode 0600. There are no literal defaults: a fresh data directory gets fresh keys.
 */
export function loadSecrets(dataDir: string, given: { fileEncryptionKey?: string; auditKey?: string }): Secrets {
  // No session secret: session ids are random tokens stored only as SHA-256, so nothing is signed with one.
  const fileKeyHex =
    given.fileEncryptionKey ?? readOrCreate(dataDir, "file-encryption-key", () => randomBytes(32).toString("hex"));
  // The audit chain's HMAC key: apart from the database, so rows cannot be rewritten with hashes that verify.
  const auditKeyHex = given.auditKey ?? readOrCreate(dataDir, "audit-key", () => randomBytes(32).toString("hex"));
  return { fileKey: Buffer.from(fileKeyHex, "hex"), auditKey: Buffer.from(auditKeyHex, "hex") };
}

function readOrCreate(dataDir: string, name: string, create: () => string): string {
  const dir = path.join(dataDir, "secrets");
  const file = path.join(dir, name);
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = create();
  fs.writeFileSync(file, `${value}\n`, { mode: 0o600, flag: "wx" });
  return value;
}
