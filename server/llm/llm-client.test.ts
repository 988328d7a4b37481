import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatCompletionJson, chatCompletionsUrl, type LlmConfig } from "./llm-client";
import { type ChatTestServer, startChatTestServer } from "./testing/chat-test-server";

let server: ChatTestServer;
let config: LlmConfig;
const messages = [{ role: "user" as const, content: "hello" }];

beforeAll(async () => {
  server = await startChatTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  config = { baseUrl: `${server.baseUrl}/`, model: "m", timeoutMs: 1000 };
});

describe("chatCompletionJson", () => {
  it("joins the base URL and the endpoint whatever the trailing slash", () => {
    expect(chatCompletionsUrl("http://h/v1/")).toBe("http://h/v1/chat/completions");
    expect(chatCompletionsUrl("http://h/v1")).toBe("http://h/v1/chat/completions");
  });

  it("returns the message content and sends no authorization without a key", async () => {
    server.respond = () => ({ kind: "content", content: '{"a":1}' });
    expect(await chatCompletionJson(config, messages)).toEqual({ ok: true, content: '{"a":1}' });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[0]?.body.messages).toEqual(messages);
  });

  it("retries server errors and rate limits, then succeeds", async () => {
    server.respond = (_request, index) =>
      index === 0
        ? { kind: "status", status: 503 }
        : index === 1
          ? { kind: "status", status: 429 }
          : { kind: "content", content: "{}" };
    expect(await chatCompletionJson(config, messages, { backoffMs: 1 })).toEqual({ ok: true, content: "{}" });
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after two retries", async () => {
    server.respond = () => ({ kind: "status", status: 500 });
    const result = await chatCompletionJson(config, messages, { backoffMs: 1 });
    expect(result).toEqual({ ok: false, reason: "the language model service answered HTTP 500 (after 3 attempts)" });
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a request the service refuses", async () => {
    server.respond = () => ({ kind: "status", status: 401 });
    expect(await chatCompletionJson(config, messages, { backoffMs: 1 })).toEqual({
      ok: false,
      reason: "the language model service answered HTTP 401",
    });
    expect(server.requests).toHaveLength(1);
  });

  it("reports a body that is not a chat completion", async () => {
    server.respond = () => ({ kind: "raw", body: '{"choices":[]}' });
    expect(await chatCompletionJson(config, messages)).toEqual({
      ok: false,
      reason: "the language model returned no message content",
    });
    server.respond = () => ({ kind: "raw", body: "<html>" });
    expect(await chatCompletionJson(config, messages)).toEqual({
      ok: false,
      reason: "the language model service did not answer with JSON",
    });
  });

  it("never throws, even when fetch itself throws synchronously", async () => {
    const broken = (() => {
      throw new Error("boom");
    }) as unknown as typeof fetch;
    const result = await chatCompletionJson(config, messages, { fetchImpl: broken, retries: 0 });
    expect(result.ok).toBe(false);
  });
});
