import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, loadOcrConfig } from "./config";

describe("loadConfig", () => {
  it("uses the documented defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toMatch(/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.session).toEqual({ idleMinutes: 30, maxHours: 12 });
    expect(config.llm).toBeNull();
    expect(config.oidc).toBeNull();
  });

  it("stops with one line naming the bad variable", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/^Invalid configuration: PORT /);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ FILE_ENCRYPTION_KEY: "short" })).toThrow(/FILE_ENCRYPTION_KEY/);
    expect(() => loadConfig({ DICOM_SR_PARAMETER_CODES: "99V:X=NOPE" })).toThrow(
      /^Invalid configuration: DICOM_SR_PARAMETER_CODES "99V:X=NOPE": NOPE is not a parameter/,
    );
    expect(loadConfig({ DICOM_SR_PARAMETER_CODES: "99V:X=ABI" }).srParameterCodes.get("99V:X")).toBe("ABI");
    expect(() => loadConfig({ OIDC_ISSUER_URL: "https://id.example" })).toThrow(/OIDC_/);
    expect(() => loadConfig({ LLM_BASE_URL: "http://127.0.0.1:1" })).toThrow(/LLM_/);
  });

  it("reads TRUSTED_PROXIES as addresses and CIDR ranges, none by default", () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: " 10.0.0.2, 10.1.0.0/16 ,::1" }).trustedProxies).toEqual([
      "10.0.0.2",
      "10.1.0.0/16",
      "::1",
    ]);
    expect(() => loadConfig({ TRUSTED_PROXIES: "proxy.local" })).toThrow(/TRUSTED_PROXIES/);
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/TRUSTED_PROXIES/);
  });

  it("warns that PLATFORM_ADMIN_EMAILS no longer grants anything", () => {
    expect(loadConfig({}).warnings).toEqual([]);
    expect(loadConfig({ PLATFORM_ADMIN_EMAILS: "a@x.com" }).warnings[0]).toMatch(/ignored.*npm run admin:grant/);
  });

  it("validates every OCR_* setting, with no silent fallback", () => {
    expect(loadConfig({}).ocr).toEqual({
      readers: 1,
      threads: 2,
      jobTimeoutMs: 120_000,
      idleExitMs: 120_000,
      readerRecycleBytes: 650 * 1024 * 1024,
      loaderRecycleBytes: 500 * 1024 * 1024,
      loadTimeoutMs: 20_000,
      loadFileTimeoutMs: 90_000,
      loaderMemoryLimitBytes: 1500 * 1024 * 1024,
    });
    expect(loadOcrConfig({ OCR_WORKERS: "2", OCR_LOADER_MEMORY_MB: "200" })).toMatchObject({
      readers: 2,
      loaderMemoryLimitBytes: 200 * 1024 * 1024,
    });
    // Once these fell back to the default without a word.
    expect(() => loadConfig({ OCR_WORKERS: "two" })).toThrow(/^Invalid configuration: OCR_WORKERS /);
    expect(() => loadOcrConfig({ OCR_TIMEOUT_MS: "0" })).toThrow(/OCR_TIMEOUT_MS/);
    expect(() => loadOcrConfig({ OCR_THREADS: "-1" })).toThrow(/OCR_THREADS/);
    expect(() => loadOcrConfig({ OCR_RECYCLE_MB: "1.5" })).toThrow(/OCR_RECYCLE_MB/);
  });

  it("keeps files locally by default; FILE_STORE=s3 needs the bucket, region and keys", () => {
    expect(loadConfig({}).fileStore).toEqual({ kind: "local" });
    const s3 = {
      FILE_STORE: "s3",
      S3_BUCKET: "scans",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
    };
    expect(loadConfig(s3).fileStore).toEqual({
      kind: "s3",
      s3: {
        bucket: "scans",
        endpoint: "http://127.0.0.1:9000",
        region: "us-east-1",
        accessKeyId: "id",
        secretAccessKey: "secret",
        forcePathStyle: true,
      },
    });
    expect(() => loadConfig({ ...s3, S3_BUCKET: "", S3_SECRET_ACCESS_KEY: "" })).toThrow(
      /^Invalid configuration: FILE_STORE=s3 needs S3_BUCKET, S3_SECRET_ACCESS_KEY/,
    );
    expect(() => loadConfig({ ...s3, FILE_STORE: "disk" })).toThrow(/FILE_STORE/);
    expect(() => loadConfig({ ...s3, S3_FORCE_PATH_STYLE: "yes" })).toThrow(/S3_FORCE_PATH_STYLE/);
    expect(loadConfig({ S3_BUCKET: "scans" }).warnings[0]).toMatch(/FILE_STORE is not s3/);
  });
});
