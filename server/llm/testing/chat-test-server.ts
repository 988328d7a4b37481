import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A small OpenAI-compatible chat-completions server for tests, on 127.0.0.1 and a free port. Each test
// decides how it answers; the requests it received are kept for assertions.

export interface ReceivedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: unknown;
  };
}

export type Reply =
  | { kind: "content"; content: string }
  | { kind: "status"; status: number; body?: string }
  | { kind: "raw"; body: string }
  | { kind: "hang" };

export interface ChatTestServer {
  baseUrl: string;
  requests: ReceivedRequest[];
  /** Decides the reply to each request; the default answers with an empty JSON object. */
  respond: (request: ReceivedRequest, index: number) => Reply;
  close: () => Promise<void>;
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(body);
}

export async function startChatTestServer(): Promise<ChatTestServer> {
  const state: ChatTestServer = {
    baseUrl: "",
    requests: [],
    respond: () => ({ kind: "content", content: "{}" }),
    close: async () => {},
  };
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      let body: ReceivedRequest["body"] = {};
      try {
        body = JSON.parse(raw);
      } catch {
        body = {};
      }
      const request: ReceivedRequest = { url: req.url ?? "", headers: req.headers, body };
      state.requests.push(request);
      const reply = state.respond(request, state.requests.length - 1);
      if (reply.kind === "hang") return;
      if (reply.kind === "status") return send(res, reply.status, reply.body ?? '{"error":"test"}');
      if (reply.kind === "raw") return send(res, 200, reply.body);
      send(
        res,
        200,
        JSON.stringify({
          id: "chatcmpl-test",
          object: "chat.completion",
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content: reply.content }, finish_reason: "stop" }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://127.0.0.1:${port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
