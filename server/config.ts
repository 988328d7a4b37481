import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { type ParameterCodes, parseParameterCodes } from "../domain/interop/dicom-sr-codes";

const optionalUrl = z.url().optional();
/** "10.0.0.1, 10.1.0.0/16, ::1": addresses or CIDR ranges of the reverse proxies in front of the server. */
const addressList = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .refine(
    (entries) =>
      entries.every((entry) => {
        const [address, bits, extra] = entry.split("/");
        if (extra !== undefined || !address || !isIP(address)) return false;
        return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
      }),
    "must be IP addresses or CIDR ranges separated by commas",
  );
const duration = (defaultMinutes: number) => z.coerce.number().int().positive().default(defaultMinutes);
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** The OCR child processes (ocr/ocr-runner.ts); the CLIs and the OCR children read these alone (loadOcrConfig). */
const ocrSchema = z.object({
  /** Reading children (one more turns files into pages): on two cores one with two threads is fastest per page. */
  OCR_WORKERS: positiveInt(1).pipe(z.number().max(16)),
  /** Inference threads of each reading child. */
  OCR_THREADS: positiveInt(2).pipe(z.number().max(64)),
  /** A reading job (or a page of one that reports progress) longer than this is stopped. */
  OCR_TIMEOUT_MS: positiveInt(120_000),
  /** A child idle this long exits and gives its memory back. */
  OCR_IDLE_MS: positiveInt(120_000),
  /** A reading child larger than this after a job is replaced. */
  OCR_RECYCLE_MB: positiveInt(650),
  /** The loading child is replaced after a job that left it larger than this. */
  OCR_LOADER_RECYCLE_MB: positiveInt(500),
  /** Opening one page of an upload (the first includes starting a cold child) may take this long. */
  OCR_LOAD_TIMEOUT_MS: positiveInt(20_000),
  /** And the whole file this long. */
  OCR_LOAD_FILE_TIMEOUT_MS: positiveInt(90_000),
  /** The loading child is stopped mid-job above this resident size. */
  OCR_LOADER_MEMORY_MB: positiveInt(1500),
});

const envSchema = ocrSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  /**
   * The embedded database's (PGlite's) shared buffers. PGlite touches all of them when it opens, so they are resident
   * from the start; below PostgreSQL's 128 MB an idle embedded server is smaller (issue 30, docs/benchmarks.md).
   */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(4096).default(32),
  PUBLIC_URL: optionalUrl,
  TRUSTED_PROXIES: addressList,
  /** No longer grants anything (an e-mail address is never proven): read only to warn at start. */
  PLATFORM_ADMIN_EMAILS: z.string().optional(),
  /** Never used (session ids are random and stored hashed): read only to warn at start. */
  SESSION_SECRET: z.string().optional(),
  /** Bearer token for GET /metrics; without it /metrics is off. */
  METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  FILE_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, "must be 64 hexadecimal characters (32 bytes)")
    .optional(),
  AUDIT_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, "must be 64 hexadecimal characters (32 bytes)")
    .optional(),
  /** Where the signed daily audit checkpoints go; default DATA_DIR/secrets/audit-checkpoints. */
  AUDIT_CHECKPOINT_DIR: z.string().optional(),
  SESSION_IDLE_MINUTES: duration(30),
  SESSION_MAX_HOURS: duration(12),
  OIDC_ISSUER_URL: optionalUrl,
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  LLM_BASE_URL: optionalUrl,
  LLM_MODEL: z.string().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  SMTP_FROM: z.string().default("Sonoscribe <no-reply@localhost>"),
  /**
   * Whether registering a clinic waits for the link mailed to its address (decision 018): "auto" does when e-mail
   * is set up (SMTP_URL); without it the clinic is created at once.
   */
  REGISTRATION_EMAIL_PROOF: z.enum(["auto", "on", "off"]).default("auto"),
  /** Clinic registrations allowed per address and hour (spam guard; raised for test servers). */
  REGISTRATIONS_PER_HOUR: z.coerce.number().int().positive().default(10),
  /** Memory for remembered report-list answers, per server process; 0 turns the memo off. */
  REPORT_LIST_MEMO_MB: z.coerce.number().nonnegative().default(64),
  /** Delivery of signed reports (issue 28): destinations on this machine (127.0.0.1, ::1) are refused unless true. */
  DELIVERY_ALLOW_LOOPBACK: z.enum(["true", "false"]).default("false"),
  /** First retry after this many seconds, doubling per attempt (at most an hour), up to DELIVERY_MAX_ATTEMPTS. */
  DELIVERY_RETRY_SECONDS: z.coerce.number().positive().default(30),
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** Where uploaded files live: DATA_DIR/files ("local", the default) or an S3-compatible bucket ("s3"). */
  FILE_STORE: z.enum(["local", "s3"]).default("local"),
  S3_BUCKET: z.string().optional(),
  /** The S3-compatible server (MinIO, Ceph, ...); unset for AWS S3 itself. */
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Bucket in the path (http://host/bucket/key), as most self-hosted S3 servers need; else in the host name. */
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("false"),
  /**
   * Vendor codes of DICOM SR measurements TID 5100 has no standard code for (reflux time, ABI, ...), as
   * "SCHEME:CODE=PARAMETER" pairs separated by commas: domain/interop/dicom-sr-codes.ts parseParameterCodes.
   */
  DICOM_SR_PARAMETER_CODES: z.string().optional(),
  /** How long POST /api/worksheets/{id}/ocr waits for its job before answering 202 (0: answer at once). */
  OCR_REQUEST_WAIT_SECONDS: z.coerce.number().min(0).max(600).default(60),
  /**
   * An OCR attempt's lease: renewed by its worker every sixth of it; one not renewed for this long is taken as a
   * dead worker's and its job retried by another (features/worksheets/ocr-jobs.ts).
   */
  OCR_LEASE_SECONDS: z.coerce.number().min(1).max(600).default(30),
  /**
   * all: the whole product in one process (`npm start`); web: HTTP only, jobs are sent to workers
   * (`npm run serve`); worker: OCR and scheduled jobs only (`npm run worker`). web and worker need DATABASE_URL.
   */
  SONOSCRIBE_ROLE: z.enum(["all", "web", "worker"]).default("all"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Unit prices for the admin cost projection, US dollars. */
  COST_DB_PER_GB_MONTH: z.coerce.number().nonnegative().default(0.25),
  COST_STORAGE_PER_GB_MONTH: z.coerce.number().nonnegative().default(0.023),
  COST_AI_PER_REPORT: z.coerce.number().nonnegative().default(0.01),
  COST_ALERT_MONTHLY_USD: z.coerce.number().nonnegative().default(100),
});

const MB = 1024 * 1024;

export type OcrConfig = {
  readers: number;
  threads: number;
  jobTimeoutMs: number;
  idleExitMs: number;
  readerRecycleBytes: number;
  loaderRecycleBytes: number;
  loadTimeoutMs: number;
  loadFileTimeoutMs: number;
  loaderMemoryLimitBytes: number;
};

export type S3Config = {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PGlite's shared_buffers, MB (PGLITE_SHARED_BUFFERS_MB); not used on PostgreSQL. */
  pgliteSharedBuffersMb: number;
  publicUrl: string | undefined;
  /** Proxies whose X-Forwarded-For/-Proto/-Host are believed; none by default (the peer's address is the client). */
  trustedProxies: string[];
  /** Lines for the start-up log: settings that are set but no longer do anything. */
  warnings: string[];
  metricsToken: string | undefined;
  fileEncryptionKey: string | undefined;
  /** HMAC key of the audit chain; generated into DATA_DIR/secrets/audit-key when not given. */
  auditKey: string | undefined;
  /** Signed daily checkpoints of the audit chain, apart from the database (audit-checkpoints.ts). */
  auditCheckpointDir: string;
  session: { idleMinutes: number; maxHours: number };
  oidc: { issuerUrl: string; clientId: string; clientSecret: string } | null;
  llm: { baseUrl: string; model: string; apiKey: string | undefined; timeoutMs: number } | null;
  smtp: { url: string; from: string } | null;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  registrationsPerHour: number;
  /** Registration waits for the mailed link (true) or creates the clinic at once (false). */
  registrationEmailProof: boolean;
  reportListMemoBytes: number;
  costs: { dbPerGbMonth: number; storagePerGbMonth: number; aiPerReport: number; alertMonthlyUsd: number };
  /** What this process runs (decision 023): everything, the web only, or jobs only. */
  role: "all" | "web" | "worker";
  /** Vendor measurement codes of DICOM SRs mapped to the vocabulary (DICOM_SR_PARAMETER_CODES). */
  srParameterCodes: ParameterCodes;
  /** Milliseconds POST /api/worksheets/{id}/ocr waits for the OCR job before answering 202. */
  ocrRequestWaitMs: number;
  /** Seconds an OCR attempt's lease lasts without renewal (a dead worker's job is retried after it). */
  ocrLeaseSeconds: number;
  /** Sending signed reports to clinics' FHIR servers and MLLP listeners (issue 28). */
  delivery: { allowLoopback: boolean; retryBaseMs: number; maxAttempts: number };
  ocr: OcrConfig;
  /** Where uploaded files live (platform/file-store.ts); both encrypted by the server. */
  fileStore: { kind: "local" } | { kind: "s3"; s3: S3Config };
};

export class ConfigError extends Error {}

function srCodesOf(text: string | undefined): ParameterCodes {
  try {
    return parseParameterCodes(text);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: DICOM_SR_PARAMETER_CODES ${(error as Error).message}`);
  }
}

function parse<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv): z.output<T> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join(".")} ${issue.message}`);
  }
  return parsed.data;
}

const ocrConfigOf = (e: z.output<typeof ocrSchema>): OcrConfig => ({
  readers: e.OCR_WORKERS,
  threads: e.OCR_THREADS,
  jobTimeoutMs: e.OCR_TIMEOUT_MS,
  idleExitMs: e.OCR_IDLE_MS,
  readerRecycleBytes: e.OCR_RECYCLE_MB * MB,
  loaderRecycleBytes: e.OCR_LOADER_RECYCLE_MB * MB,
  loadTimeoutMs: e.OCR_LOAD_TIMEOUT_MS,
  loadFileTimeoutMs: e.OCR_LOAD_FILE_TIMEOUT_MS,
  loaderMemoryLimitBytes: e.OCR_LOADER_MEMORY_MB * MB,
});

/** Only the OCR_* settings, for the OCR CLI and the OCR child processes; the same checks as loadConfig. */
export function loadOcrConfig(env: NodeJS.ProcessEnv = process.env): OcrConfig {
  return ocrConfigOf(parse(ocrSchema, env));
}

/** Reads the environment once; throws ConfigError with one line naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parse(envSchema, env);
  const oidcParts = [e.OIDC_ISSUER_URL, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET];
  if (oidcParts.some(Boolean) && !oidcParts.every(Boolean)) {
    throw new ConfigError("Invalid configuration: OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together");
  }
  if (Boolean(e.LLM_BASE_URL) !== Boolean(e.LLM_MODEL)) {
    throw new ConfigError("Invalid configuration: LLM_BASE_URL and LLM_MODEL go together");
  }
  const s3Parts = {
    S3_BUCKET: e.S3_BUCKET,
    S3_REGION: e.S3_REGION,
    S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY,
  };
  const s3Missing = Object.entries(s3Parts)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (e.FILE_STORE === "s3" && s3Missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration: FILE_STORE=s3 needs ${s3Missing.join(", ")} (S3_ENDPOINT too, unless the bucket is on AWS)`,
    );
  }
  if (e.SONOSCRIBE_ROLE !== "all" && !e.DATABASE_URL) {
    throw new ConfigError(
      `Invalid configuration: SONOSCRIBE_ROLE=${e.SONOSCRIBE_ROLE} needs DATABASE_URL (the embedded database belongs to one process: use npm start)`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    pgliteSharedBuffersMb: e.PGLITE_SHARED_BUFFERS_MB,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ""),
    trustedProxies: e.TRUSTED_PROXIES,
    warnings: [
      ...(e.PLATFORM_ADMIN_EMAILS
        ? [
            "PLATFORM_ADMIN_EMAILS is ignored: an e-mail address alone no longer makes a platform administrator. Grant the role on the server with `npm run admin:grant -- EMAIL`.",
          ]
        : []),
      ...(e.SMTP_URL && !e.PUBLIC_URL
        ? [
            "SMTP_URL is set without PUBLIC_URL: links in e-mails follow the Host header of the request that caused them. Set PUBLIC_URL to this server's address.",
          ]
        : []),
      ...(e.FILE_STORE !== "s3" && (s3Missing.length < 4 || e.S3_ENDPOINT)
        ? [
            "S3_* settings are set but FILE_STORE is not s3: files are kept in DATA_DIR/files. Set FILE_STORE=s3 to use the bucket.",
          ]
        : []),
      ...(e.SESSION_SECRET
        ? ["SESSION_SECRET is not used (session ids are random and stored hashed): remove it from the environment."]
        : []),
    ],
    metricsToken: e.METRICS_TOKEN,
    fileEncryptionKey: e.FILE_ENCRYPTION_KEY,
    auditKey: e.AUDIT_KEY,
    auditCheckpointDir: e.AUDIT_CHECKPOINT_DIR
      ? path.resolve(e.AUDIT_CHECKPOINT_DIR)
      : path.join(path.resolve(e.DATA_DIR), "secrets", "audit-checkpoints"),
    session: { idleMinutes: e.SESSION_IDLE_MINUTES, maxHours: e.SESSION_MAX_HOURS },
    oidc:
      e.OIDC_ISSUER_URL && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? { issuerUrl: e.OIDC_ISSUER_URL, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
        : null,
    llm:
      e.LLM_BASE_URL && e.LLM_MODEL
        ? { baseUrl: e.LLM_BASE_URL, model: e.LLM_MODEL, apiKey: e.LLM_API_KEY, timeoutMs: e.LLM_TIMEOUT_MS }
        : null,
    smtp: e.SMTP_URL ? { url: e.SMTP_URL, from: e.SMTP_FROM } : null,
    logLevel: e.LOG_LEVEL,
    role: e.SONOSCRIBE_ROLE,
    ocrRequestWaitMs: Math.round(e.OCR_REQUEST_WAIT_SECONDS * 1000),
    ocrLeaseSeconds: e.OCR_LEASE_SECONDS,
    srParameterCodes: srCodesOf(e.DICOM_SR_PARAMETER_CODES),
    delivery: {
      allowLoopback: e.DELIVERY_ALLOW_LOOPBACK === "true",
      retryBaseMs: Math.round(e.DELIVERY_RETRY_SECONDS * 1000),
      maxAttempts: e.DELIVERY_MAX_ATTEMPTS,
    },
    ocr: ocrConfigOf(e),
    fileStore:
      e.FILE_STORE === "s3"
        ? {
            kind: "s3",
            s3: {
              bucket: e.S3_BUCKET!,
              endpoint: e.S3_ENDPOINT,
              region: e.S3_REGION!,
              accessKeyId: e.S3_ACCESS_KEY_ID!,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
              forcePathStyle: e.S3_FORCE_PATH_STYLE === "true",
            },
          }
        : { kind: "local" },
    registrationsPerHour: e.REGISTRATIONS_PER_HOUR,
    registrationEmailProof:
      e.REGISTRATION_EMAIL_PROOF === "on" || (e.REGISTRATION_EMAIL_PROOF === "auto" && Boolean(e.SMTP_URL)),
    reportListMemoBytes: Math.round(e.REPORT_LIST_MEMO_MB * MB),
    costs: {
      dbPerGbMonth: e.COST_DB_PER_GB_MONTH,
      storagePerGbMonth: e.COST_STORAGE_PER_GB_MONTH,
      aiPerReport: e.COST_AI_PER_REPORT,
      alertMonthlyUsd: e.COST_ALERT_MONTHLY_USD,
    },
  };
}
