import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

/**
 * The real server on 127.0.0.1, for the fault and load benchmarks: compiled, as `npm start` runs it
 * (scripts/run.mjs), or under tsx with BENCH_SERVER=tsx (how it ran before issue 30).
 */
export type RealServer = { child: ChildProcess; base: string };

const root = path.resolve(import.meta.dirname, "..");

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startServer(env: { DATA_DIR: string; DATABASE_URL?: string } & Record<string, string>) {
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under a benchmark.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const entry = process.env.BENCH_SERVER === "tsx" ? ["--import", "tsx"] : ["scripts/run.mjs"];
  const child = spawn(process.execPath, [...nodeArgs, ...entry, "server/main.ts"], {
    cwd: root,
    // Its own process group: whatever it forks (the OCR child) can be found after a kill.
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, DATABASE_URL: "", PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server did not start: ${stderr.slice(0, 2000)}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, base } satisfies RealServer;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  throw new Error(`the server did not answer in 90 s: ${stderr.slice(0, 2000)}`);
}

/** A fetch client that keeps the session cookie. */
export class Client {
  cookie = "";
  /**
   * @param address the user's own address, sent as X-Forwarded-For (the server must trust 127.0.0.1 as a proxy):
   * per-address limits then count each simulated user apart, as they would people at their own desks.
   */
  constructor(
    public base: string,
    private readonly address?: string,
  ) {}

  async call(method: string, url: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const headers: Record<string, string> = { cookie: this.cookie };
    if (this.address) headers["x-forwarded-for"] = this.address;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["content-type"] = "application/json";
    }
    const res = await fetch(`${this.base}${url}`, { method, headers, body: payload, redirect: "manual" });
    const setCookie = res.headers.get("set-cookie")?.match(/sid=[^;]+/);
    if (setCookie) this.cookie = setCookie[0];
    const text = await res.text();
    const json = /^[[{]/.test(text) ? JSON.parse(text) : text;
    return { status: res.status, json };
  }

  async must<T = Answer>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await this.call(method, url, body);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
    return res.json as T;
  }
}

/** The few fields of the answers the benchmarks read. */
export type Answer = { id: number; total: number; ocrStatus: string; items: Array<{ id: number }> };

/** Registers through the API and signs in (the server sends no e-mail here, so the clinic exists at once). */
export async function registerAndSignIn(client: Client, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@clinic.test`;
  const password = "correct horse battery";
  await client.must("POST", "/api/clinics/register", {
    name,
    email,
    adminFirstName: "Bea",
    adminLastName: "Bench",
    password,
    city: "Springfield",
    state: "IL",
  });
  await client.must("POST", "/api/auth/login", { email, password });
  return { email, password };
}

/** The workloads' calls, timed per name; an error is a status of 400 or more or no answer. */
export class CallTimer {
  readonly samples = new Map<string, number[]>();
  readonly errors = new Map<string, number>();
  readonly errorExamples: string[] = [];

  async timed<T>(name: string, run: () => Promise<{ status: number; json: unknown }>): Promise<T | null> {
    const started = performance.now();
    let result: { status: number; json: unknown } | null = null;
    try {
      result = await run();
    } catch (error) {
      if (this.errorExamples.length < 10) this.errorExamples.push(`${name}: ${(error as Error).message}`);
    }
    if (!this.samples.has(name)) this.samples.set(name, []);
    this.samples.get(name)!.push(performance.now() - started);
    if (!result || result.status >= 400) {
      this.errors.set(name, (this.errors.get(name) ?? 0) + 1);
      if (result && this.errorExamples.length < 10) {
        this.errorExamples.push(`${name}: ${result.status} ${JSON.stringify(result.json).slice(0, 200)}`);
      }
      return null;
    }
    return result.json as T;
  }

  /** Every error so far, of every call. */
  errorCount(): number {
    return [...this.errors.values()].reduce((sum, n) => sum + n, 0);
  }
}
