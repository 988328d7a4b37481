// OpenAI-compatible chat completions with JSON output. A report must never fail because a language model
// is slow or down, so this never throws: it returns the model's text or the reason there is none.

export interface LlmConfig {
  /** e.g. "http://localhost:11434/v1"; "/chat/completions" is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Time allowed for each attempt. */
  timeoutMs: number;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export type LlmResult = { ok: true; content: string } | { ok: false; reason: string };

export interface LlmCallOptions {
  /** Retries after the first attempt, for time-outs, network errors, 429 and 5xx. */
  retries?: number;
  /** First back-off delay; it doubles on each retry. */
  backoffMs?: number;
  fetchImpl?: typeof fetch;
}

const DEFAULT_RETRIES = 2;
const DEFAULT_BACKOFF_MS = 250;

type Attempt = { ok: true; content: string } | { ok: false; reason: string; retryable: boolean };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
}

async function attempt(config: LlmConfig, messages: readonly ChatMessage[], fetchImpl: typeof fetch): Promise<Attempt> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  try {
    const response = await fetchImpl(chatCompletionsUrl(config.baseUrl), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: config.model,
        messages,
        temperature: 0,
        response_format: { type: "json_object" },
      }),
      signal: controller.signal,
    });
    const body = await response.text();
    if (!response.ok) {
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      return { ok: false, reason: `the language model service answered HTTP ${response.status}`, retryable };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return { ok: false, reason: "the language model service did not answer with JSON", retryable: false };
    }
    const content = (parsed as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
    if (typeof content !== "string" || content.trim() === "") {
      return { ok: false, reason: "the language model returned no message content", retryable: false };
    }
    return { ok: true, content };
  } catch (error) {
    if (controller.signal.aborted) {
      return { ok: false, reason: `the language model did not answer within ${config.timeoutMs} ms`, retryable: true };
    }
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    return { ok: false, reason: `the language model service could not be reached (${cause})`, retryable: true };
  } finally {
    clearTimeout(timer);
  }
}

export async function chatCompletionJson(
  config: LlmConfig,
  messages: readonly ChatMessage[],
  options: LlmCallOptions = {},
): Promise<LlmResult> {
  const retries = Math.max(0, options.retries ?? DEFAULT_RETRIES);
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const fetchImpl = options.fetchImpl ?? fetch;
  let last: Attempt = { ok: false, reason: "no attempt was made", retryable: false };
  for (let i = 0; i <= retries; i++) {
    if (i > 0) await sleep(backoffMs * 2 ** (i - 1));
    try {
      last = await attempt(config, messages, fetchImpl);
    } catch (error) {
      last = { ok: false, reason: `unexpected error: ${(error as Error).message}`, retryable: false };
    }
    if (last.ok || !last.retryable) break;
  }
  if (last.ok) return last;
  const tries = last.retryable && retries > 0 ? ` (after ${retries + 1} attempts)` : "";
  return { ok: false, reason: `${last.reason}${tries}` };
}
