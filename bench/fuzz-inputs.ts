import { randomBytes } from "node:crypto";
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import type { ZodType } from "zod";

// Generators of malformed requests for bench/fuzz-routes.ts. Every generator aims at inputs that must be
// refused: a request that succeeds is a bug of the generator or of the route, and the runner reports both.

export type RouteShape = {
  method: string;
  url: string;
  /** How the route reads its body: a zod schema, a multipart form, or nothing at all. */
  body: { kind: "json"; schema: ZodType } | { kind: "multipart" } | { kind: "none" };
  params: ZodType | null;
  query: ZodType | null;
};

/** A small seeded generator, so that one seed replays the same run. */
export class Rng {
  constructor(private state: number) {}
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  sample<T>(arbitrary: fc.Arbitrary<T>): T {
    return fc.sample(arbitrary, { seed: this.int(2 ** 31), numRuns: 1 })[0]!;
  }
}

const MB = 1024 * 1024;
export const hugeString = (char = "a") => char.repeat(MB);

/** Strings that break naive parsers, path handling, logs and databases. */
export const nastyStrings = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%2e%2e%2f%2e%2e%2f",
  "\u202eevil\u202c",
  "\u200b\u200d\ufeff",
  "💥🧨".repeat(50),
  "\ud800",
  "Ω≈ç√∫˜µ≤≥÷",
  "<script>alert(1)</script>",
  "'; drop table reports; --",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, literally
  "${jndi:ldap://127.0.0.1/a}",
  "{{7*7}}",
  "\r\nSet-Cookie: sid=x",
  "-1",
  "1e309",
  "NaN",
];

/** Values for :id and other parameters that are not a record of the signed-in clinic. */
export function forgedIds(foreignIds: string[]): string[] {
  return [
    ...foreignIds,
    "0",
    "-1",
    "-2147483648",
    "2147483647",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "1e3",
    "0x10",
    "1.5",
    "abc",
    "NaN",
    "Infinity",
    "null",
    "%00",
    "1%00",
    "%2e%2e",
    "..%2f..%2fetc%2fpasswd",
    "%20",
    "%F0%9F%92%A5",
    "%D9%A1",
    "%ED%A0%80",
    "%",
    "%zz",
    "a".repeat(3000),
    "9".repeat(400),
    "00000000-0000-0000-0000-000000000000",
    "__proto__",
    "constructor",
  ];
}

/** Whole-URL tricks: the route is changed into something that must not match a handler's intent. */
export function pathTricks(url: string): string[] {
  const base = url.split("?")[0]!;
  return [
    `${base}/..`,
    `${base}/../../../../etc/passwd`,
    `${base}/%2e%2e/%2e%2e/etc/passwd`,
    `${base}%00`,
    `${base}%00.png`,
    `${base}/%c0%ae%c0%ae/`,
    `${base}\\..\\..\\`,
    `${base}//..//`,
    `/%2e%2e${base}`,
    `${base}/${"x".repeat(8000)}`,
    `${base};jsessionid=1`,
    `${base}/%ff%fe`,
  ];
}

const brokenJson = [
  "{",
  '{"a":',
  "[1,2",
  "{'a':1}",
  '{"a":1,}',
  "nul",
  "\u0000",
  '{"a":"\\x41"}',
  '{"a":"\\ud800"',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  "1e",
  "0x1F",
  `{"a":"${"b".repeat(MB)}"`,
  `${"[".repeat(5000)}`,
];

/** JSON values of every shape: wrong types, unicode, numbers past 2^53, huge strings now and then. */
function jsonValue(rng: Rng): unknown {
  const roll = rng.int(12);
  if (roll === 0) return rng.int(30) === 0 ? hugeString(rng.pick(["a", "é", "💥"])) : rng.pick(nastyStrings);
  if (roll === 1) return rng.pick([-1, 0, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 0.5, -0]);
  if (roll === 2) return rng.pick([null, true, false, [], {}, [null], { $gt: "" }]);
  if (roll === 3) return rng.sample(fc.string({ unit: "grapheme", maxLength: 40 }));
  if (roll === 4) return rng.sample(fc.string({ unit: "binary", maxLength: 40 }));
  if (roll === 5) return rng.pick(["2024-02-30", "1900-13-01", "99999-01-01", "2024-1-1", "tomorrow"]);
  return rng.sample(fc.jsonValue({ maxDepth: 2 }));
}

/** An object with the schema's own keys filled with generated values, kept only when the schema refuses it. */
export function invalidBody(rng: Rng, schema: ZodType): unknown {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const keys = Object.keys(shape);
  for (let attempt = 0; attempt < 20; attempt++) {
    const roll = rng.int(6);
    let candidate: unknown;
    if (roll === 0) candidate = jsonValue(rng);
    else if (roll === 1) candidate = [Object.fromEntries(keys.map((k) => [k, "x"]))];
    else {
      const entries = keys.filter(() => rng.next() < 0.8).map((k) => [k, jsonValue(rng)]);
      candidate = Object.fromEntries(entries);
    }
    if (!schema.safeParse(candidate).success) return candidate;
  }
  return "not an object";
}

export const multipartFileFields = [
  "worksheet",
  "worksheetFile",
  "exampleImage",
  "signature",
  "logo",
  "report",
  "file",
  "../../x",
];

function multipartBody(parts: string[], boundary: string, close = true): Buffer {
  const body = parts.map((p) => `--${boundary}\r\n${p}\r\n`).join("");
  return Buffer.from(close ? `${body}--${boundary}--\r\n` : body);
}

/** Multipart bodies that no upload route may accept. */
export function malformedMultipart(rng: Rng): Pick<InjectOptions, "payload" | "headers"> {
  const boundary = `----fuzz${randomBytes(6).toString("hex")}`;
  const type = `multipart/form-data; boundary=${boundary}`;
  const field = rng.pick(multipartFileFields);
  const garbage = rng.pick([
    "hello, this is not an image",
    "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
    `\x7fELF\x02\x01\x01\x00${"\x90".repeat(200)}`,
    "%PDF-1.7 truncated",
    "\x89PNG\r\n\x1a\n",
    "GIF89a",
    "",
  ]);
  const file = (name: string, filename = "scan.png", data = garbage) =>
    `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n${data}`;
  const variants: Array<() => Pick<InjectOptions, "payload" | "headers">> = [
    () => ({ payload: multipartBody([file(field)], boundary), headers: { "content-type": type } }),
    () => ({ payload: multipartBody([file(field)], boundary, false), headers: { "content-type": type } }),
    () => ({ payload: multipartBody([file(field)], "other"), headers: { "content-type": type } }),
    () => ({ payload: multipartBody([file(field)], boundary), headers: { "content-type": "multipart/form-data" } }),
    () => ({
      payload: multipartBody([file(field, "../../../etc/passwd\r\nX: y"), file(field), file(field)], boundary),
      headers: { "content-type": type },
    }),
    () => ({ payload: `--${boundary}\r\nContent-Disposition: garbage\r\n\r\n`, headers: { "content-type": type } }),
    () => ({ payload: randomBytes(2000), headers: { "content-type": type } }),
    () => ({
      payload: multipartBody(
        [`Content-Disposition: form-data; name="name"\r\n\r\n${hugeString()}`, file(field)],
        boundary,
      ),
      headers: { "content-type": type },
    }),
    () => ({ payload: multipartBody([file("unexpected", "a.png")], boundary), headers: { "content-type": type } }),
  ];
  return rng.pick(variants)();
}

/** Bodies refused by the content-type parser before any handler runs. */
export function unparsableBody(rng: Rng): Pick<InjectOptions, "payload" | "headers"> {
  const roll = rng.int(5);
  if (roll === 0) return { payload: "", headers: { "content-type": "application/json" } };
  if (roll === 1) return { payload: "a=1&b=2", headers: { "content-type": "application/x-www-form-urlencoded" } };
  if (roll === 2)
    return { payload: "<a>1</a>", headers: { "content-type": rng.pick(["application/xml", "text/xml"]) } };
  if (roll === 3)
    return { payload: "{}", headers: { "content-type": rng.pick(["application/octet-stream", "image/png", ";;;"]) } };
  return { payload: rng.pick(brokenJson), headers: { "content-type": "application/json" } };
}

/** Every byte percent-encoded: lone surrogates become U+FFFD instead of throwing. */
const percent = (value: string) => [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
const text = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? "undefined"));

/**
 * Query strings that the route's query schema refuses, or junk for routes that read no query. `anyValue` lets
 * through queries the schema accepts (hostile but valid text): only for reads, which must not write anyway.
 */
export function junkQuery(rng: Rng, schema: ZodType | null, anyValue = false): string {
  const value = percent(text(jsonValue(rng)).slice(0, 5000));
  if (!schema) return rng.pick([`?a=${value}`, "?__proto__[x]=1", `?${"a=1&".repeat(500)}`, "?%zz", "?a[b][c]=1"]);
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  for (let attempt = 0; attempt < 20; attempt++) {
    const query = Object.fromEntries(
      Object.keys(shape).map((k) => [k, text(jsonValue(rng)).slice(0, rng.int(3) === 0 ? MB : 300)]),
    );
    if (anyValue || !schema.safeParse(query).success) {
      return `?${Object.entries(query)
        .map(([k, v]) => `${k}=${percent(v)}`)
        .join("&")}`;
    }
  }
  return `?${Object.keys(shape)[0] ?? "x"}=${"9".repeat(400)}`;
}
