import http from "node:http";
import https from "node:https";
import net from "node:net";
import { assertLiteralAddressAllowed, guardedLookup } from "./address-policy";

/**
 * The two ways a report leaves: a FHIR transaction Bundle POSTed to a server's base URL, and an HL7 v2 message over
 * MLLP (start block 0x0b, message, end block 0x1c 0x0d) answered by an ACK whose MSA-1 says AA (or CA). Each resolves
 * on delivery and rejects with a sentence for the report's delivery list.
 */

export type SendOptions = { allowLoopback: boolean; timeoutMs: number };

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The words of a FHIR OperationOutcome, else the start of the body. */
function fhirErrorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as {
      resourceType?: string;
      issue?: { diagnostics?: string; details?: { text?: string } }[];
    };
    if (parsed.resourceType === "OperationOutcome") {
      const words = (parsed.issue ?? []).map((i) => i.diagnostics ?? i.details?.text).filter(Boolean);
      if (words.length) return clip(words.join("; "));
    }
  } catch {
    // not JSON: the text itself
  }
  return clip(body.trim().replace(/\s+/g, " "));
}

export function postFhirTransaction(
  baseUrl: string,
  bundleJson: string,
  token: string | null,
  options: SendOptions,
): Promise<void> {
  const url = new URL(baseUrl);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    try {
      assertLiteralAddressAllowed(url.hostname, options.allowLoopback);
    } catch (error) {
      return reject(new Error(`Could not reach the FHIR server: ${(error as Error).message}`));
    }
    const request = client.request(
      url,
      {
        method: "POST",
        lookup: guardedLookup(options.allowLoopback) as never,
        timeout: options.timeoutMs,
        headers: {
          "content-type": "application/fhir+json; charset=utf-8",
          accept: "application/fhir+json",
          "content-length": Buffer.byteLength(bundleJson),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          // Only the start of an error body is kept: a receiver cannot fill our memory.
          if (size < 64_000) chunks.push(chunk);
          size += chunk.length;
        });
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve();
          const body = Buffer.concat(chunks).toString("utf8");
          reject(new Error(`The FHIR server answered ${status}${body ? `: ${fhirErrorText(body)}` : ""}`));
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () =>
      request.destroy(new Error(`The FHIR server did not answer within ${options.timeoutMs / 1000} s`)),
    );
    request.on("error", (error) => reject(new Error(`Could not reach the FHIR server: ${error.message}`)));
    request.end(bundleJson);
  });
}

export const MLLP_START = 0x0b;
export const MLLP_END = Buffer.from([0x1c, 0x0d]);

export function frameMllp(message: string): Buffer {
  return Buffer.concat([Buffer.from([MLLP_START]), Buffer.from(message, "utf8"), MLLP_END]);
}

/** MSA-1 and MSA-3 of an ACK (v2 text, segments ending in CR). */
export function readAck(ack: string): { code: string; text: string } | null {
  const msa = ack.split(/\r\n?|\n/).find((s) => s.startsWith("MSA"));
  if (!msa) return null;
  const fields = msa.split(msa.charAt(3) || "|");
  return { code: fields[1] ?? "", text: fields[3] ?? "" };
}

export function sendMllp(host: string, port: number, message: string, options: SendOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      assertLiteralAddressAllowed(host, options.allowLoopback);
    } catch (error) {
      return reject(new Error(`Could not reach the HL7 listener: ${(error as Error).message}`));
    }
    let received = Buffer.alloc(0);
    let settled = false;
    const socket = net.connect({ host, port, lookup: guardedLookup(options.allowLoopback) as never });
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    socket.setTimeout(options.timeoutMs, () =>
      finish(new Error(`The HL7 listener did not acknowledge within ${options.timeoutMs / 1000} s`)),
    );
    socket.on("connect", () => socket.write(frameMllp(message)));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length > 1_000_000) return finish(new Error("The HL7 listener's answer is too long"));
      const end = received.indexOf(MLLP_END);
      if (end < 0) return;
      const start = received.indexOf(MLLP_START);
      const ack = readAck(received.subarray(start >= 0 ? start + 1 : 0, end).toString("utf8"));
      if (!ack) return finish(new Error("The HL7 listener answered without an MSA segment"));
      if (ack.code === "AA" || ack.code === "CA") return finish();
      finish(new Error(`The HL7 listener refused the message (${ack.code}${ack.text ? `: ${clip(ack.text)}` : ""})`));
    });
    socket.on("error", (error) => finish(new Error(`Could not reach the HL7 listener: ${error.message}`)));
    socket.on("close", () => finish(new Error("The HL7 listener closed the connection without an acknowledgement")));
  });
}
