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

  /** The server's human message: the JSON body's error or details field. */
  get serverMessage(): string | null {
    try {
      const body = JSON.parse(this.bodyText) as { error?: unknown; details?: unknown };
      const text = body.error ?? body.details;
      return typeof text === "string" ? text : null;
    } catch {
      return null;
    }
  }
}

export const isUnauthorizedError = (error: unknown): boolean =>
  error instanceof Error && /^401: .*/.test(error.message);

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

/** JSON of a call, typed by the caller; 204 gives undefined. */
export async function apiJson<T>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data);
  return res.status === 204 ? (undefined as T) : ((await res.json()) as T);
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
