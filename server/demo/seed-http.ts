import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";

// The demo seed talks to the app only through its HTTP API, so it is validated, permission-checked and
// audited like a person's work. The same seed runs in-process (app.inject, at a demo start and in tests)
// or against a running server (fetch, from the end-to-end suite).

export type FilePart = { name: string; filename: string; contentType: string; data: Buffer };
export type FormPart = { name: string; value: string } | FilePart;

export type SeedRequest = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  json?: unknown;
  form?: FormPart[];
  /** The session cookie ("sid=...") of the signed-in user. */
  cookie?: string;
};

export type SeedResponse = { status: number; body: unknown; sessionCookie: string | null };

export type SeedTransport = (request: SeedRequest) => Promise<SeedResponse>;

export class SeedError extends Error {}

/** A multipart body; app.inject takes a buffer, and this keeps the seed free of test helpers. */
function multipartBody(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----sonoscribe-demo-${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      "filename" in part
        ? `form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}`
        : `form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push("filename" in part ? part.data : Buffer.from(part.value, "utf8"), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const sidOf = (setCookie: string[]) => {
  const sid = setCookie.map((c) => c.split(";")[0] ?? "").find((c) => c.startsWith("sid="));
  return sid ?? null;
};

const parseBody = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
};

export function injectTransport(app: FastifyInstance): SeedTransport {
  return async (request) => {
    const headers: Record<string, string> = request.cookie ? { cookie: request.cookie } : {};
    let payload: string | Buffer | undefined;
    if (request.form) {
      const body = multipartBody(request.form);
      payload = body.payload;
      headers["content-type"] = body.contentType;
    } else if (request.json !== undefined) {
      payload = JSON.stringify(request.json);
      headers["content-type"] = "application/json";
    }
    const res = await app.inject({ method: request.method, url: request.url, headers, payload });
    const setCookie = res.headers["set-cookie"];
    const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
    return { status: res.statusCode, body: parseBody(res.body), sessionCookie: sidOf(cookies) };
  };
}

export function fetchTransport(baseUrl: string): SeedTransport {
  const origin = new URL(baseUrl).origin;
  return async (request) => {
    // The server refuses state changes from another origin; a same-origin Origin header is what a browser sends.
    const headers: Record<string, string> = { origin };
    if (request.cookie) headers.cookie = request.cookie;
    let body: BodyInit | undefined;
    if (request.form) {
      const form = new FormData();
      for (const part of request.form) {
        if ("filename" in part) {
          form.append(part.name, new Blob([new Uint8Array(part.data)], { type: part.contentType }), part.filename);
        } else {
          form.append(part.name, part.value);
        }
      }
      body = form;
    } else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers["content-type"] = "application/json";
    }
    const res = await fetch(new URL(request.url, origin), { method: request.method, headers, body });
    return {
      status: res.status,
      body: parseBody(await res.text()),
      sessionCookie: sidOf(res.headers.getSetCookie()),
    };
  };
}

/** Sends one request and insists on the expected status: a seed that half-works is worse than none. */
export async function call<T>(
  transport: SeedTransport,
  request: SeedRequest,
  expected: number | number[] = [200, 201],
): Promise<{ body: T; sessionCookie: string | null }> {
  const res = await transport(request);
  const wanted = Array.isArray(expected) ? expected : [expected];
  if (!wanted.includes(res.status)) {
    const detail = typeof res.body === "object" && res.body ? JSON.stringify(res.body) : String(res.body);
    throw new SeedError(`${request.method} ${request.url} answered ${res.status}: ${detail.slice(0, 300)}`);
  }
  return { body: res.body as T, sessionCookie: res.sessionCookie };
}
