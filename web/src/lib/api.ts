import { type QueryKey, type UseQueryOptions, useQuery } from "@tanstack/react-query";
import type { z } from "zod";

/**
 * The API client of the spec: every call sends the session cookie; a non-OK answer becomes an error whose
 * message is "STATUS: body text" (or the status text when the body is empty).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = "ApiError";
  }

  private get body(): { error?: unknown; details?: unknown; code?: unknown; field?: unknown } | null {
    try {
      const body = JSON.parse(this.bodyText) as unknown;
      return body && typeof body === "object" ? body : null;
    } catch {
      return null;
    }
  }

  /** The server's human message: the JSON body's error or details field. */
  get serverMessage(): string | null {
    const text = this.body?.error ?? this.body?.details;
    return typeof text === "string" ? text : null;
  }

  /** The form field the server's refusal is about, when it names one. */
  get field(): string | null {
    const field = this.body?.field;
    return typeof field === "string" ? field : null;
  }

  /** The server's error code (domain/errors.ts: "UNAUTHORIZED", "TOTP_REQUIRED", "reauth_required"...). */
  get code(): string | null {
    const code = this.body?.code;
    return typeof code === "string" ? code : null;
  }
}

/**
 * Signed out (no session, or it expired): the server's UNAUTHORIZED code. A 401 with another code (a second
 * factor asked for) is not; a 401 without a JSON body (a proxy in front) is taken as signed out.
 */
export const isUnauthorizedError = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 401 && (error.code ?? "UNAUTHORIZED") === "UNAUTHORIZED";

/** An answer that does not match its shared contract (domain/contracts): a client and server out of step. */
export class UnexpectedAnswerError extends Error {
  constructor(
    readonly url: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super("The server's answer was not understood. Reload the page; if it happens again, tell your administrator.");
    this.name = "UnexpectedAnswerError";
  }
}

/**
 * An answer as it came over the wire (JSON: dates as ISO strings), checked against its contract. The checked
 * wire form, not zod's output: codecs such as the templates' timestamps (string to Date) stay strings.
 */
export type Answer<S extends z.ZodType> = z.input<S>;

/** Checks an answer against its contract; a mismatch is logged with the path of the wrong field. */
export function parseAnswer<S extends z.ZodType>(url: string, schema: S, data: unknown): Answer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return data as Answer<S>;
  console.error(`Unexpected answer from ${url}`, parsed.error.issues);
  throw new UnexpectedAnswerError(url, parsed.error.issues);
}

/** The spec's error text: the body's error or details, else "HTTP status: statusText", else Unknown error. */
export function errorMessage(error: unknown, fallback?: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback ?? `HTTP ${error.message}`;
  if (error instanceof Error && error.message) return fallback ?? error.message;
  return fallback ?? "Unknown error";
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
}

export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const isForm = data instanceof FormData;
  const res = await fetch(url, {
    method,
    headers: data !== undefined && !isForm ? { "Content-Type": "application/json" } : {},
    body: data === undefined ? undefined : isForm ? data : JSON.stringify(data),
    credentials: "include",
  });
  await throwIfNotOk(res);
  return res;
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { credentials: "include" });
  await throwIfNotOk(res);
  return res.json();
}

/** Calls whose answers are parsed with the shared zod contracts (domain/contracts), not asserted. */
export const api = {
  get: async <S extends z.ZodType>(url: string, schema: S): Promise<Answer<S>> =>
    parseAnswer(url, schema, await getJson(url)),
  send: async <S extends z.ZodType>(method: string, url: string, data: unknown, schema: S): Promise<Answer<S>> => {
    const res = await apiRequest(method, url, data);
    return parseAnswer(url, schema, res.status === 204 ? undefined : await res.json());
  },
};

/**
 * useQuery for a GET whose URL is the query key's segments joined by slashes (the spec's cache keys), its
 * answer parsed with the contract.
 */
export function useApiQuery<S extends z.ZodType>(
  queryKey: QueryKey,
  schema: S,
  options: Omit<UseQueryOptions<Answer<S>>, "queryKey" | "queryFn"> = {},
) {
  return useQuery<Answer<S>>({
    queryKey,
    queryFn: () => api.get(queryKey.join("/"), schema),
    ...options,
  });
}

export type UnauthorizedBehavior = "returnNull" | "throw";

/** Query function: the URL is the query key's segments joined by slashes. */
export const getQueryFn =
  ({ on401 }: { on401: UnauthorizedBehavior }) =>
  async ({ queryKey }: { queryKey: readonly unknown[] }) => {
    const res = await fetch(queryKey.join("/"), { credentials: "include" });
    if (on401 === "returnNull" && res.status === 401) return null;
    await throwIfNotOk(res);
    return res.json();
  };
