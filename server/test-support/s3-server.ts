import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export type TestS3 = {
  /** The environment that points the app at the bucket (FILE_STORE=s3 and every S3_* setting). */
  env: Record<string, string>;
  /** Where the server keeps the bucket's objects on disk (to look at what it was given). */
  directory: string;
  close(): Promise<void>;
};

/**
 * An S3-compatible server (s3rver, from the npm registry) on a free loopback port with one empty bucket, for the
 * tests of the S3 file store: no network, no credentials but its fixed test pair.
 */
export async function startTestS3(bucket = "sonoscribe-test"): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    env: s3Env(bucket, port),
    directory,
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

const s3Env = (bucket: string, port: number) => ({
  FILE_STORE: "s3",
  S3_BUCKET: bucket,
  S3_ENDPOINT: `http://127.0.0.1:${port}`,
  S3_REGION: "us-east-1",
  S3_ACCESS_KEY_ID: "S3RVER",
  S3_SECRET_ACCESS_KEY: "S3RVER",
  S3_FORCE_PATH_STYLE: "true",
});

const CHILD = `
const [main, directory, bucket] = process.argv.slice(1);
const S3rver = require(main);
new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
  .run()
  .then(({ port }) => process.stdout.write(port + "\\n"));
`;

/**
 * The same server in a child process run with --openssl-legacy-provider: s3rver seals ListObjectsV2 continuation
 * tokens with DES, which Node's OpenSSL 3 refuses otherwise (a 500 InternalError on any listing past one page).
 * For tests that list more than 1,000 keys.
 */
export async function startTestS3Process(bucket = "sonoscribe-test"): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-s3-"));
  const main = createRequire(import.meta.url).resolve("s3rver");
  const child = spawn(process.execPath, ["--openssl-legacy-provider", "-e", CHILD, main, directory, bucket], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (data) => resolve(Number(String(data).trim())));
    child.once("exit", (code) => reject(new Error(`s3rver exited (${code}) before listening`)));
  });
  return {
    env: s3Env(bucket, port),
    directory,
    async close() {
      child.kill();
      await exited;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
