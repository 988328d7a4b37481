import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shutdownOcr } from "../ocr/ocr-service";
import { hugeImagePdf, pngBomb } from "../test-support/hostile-files";
import { as, createTestApp, multipart, registerClinic, type SignedIn, type TestApp } from "../test-support/test-app";

/**
 * Decompression bombs on every upload that decodes a file (issue 25 item 2): refused with a 413 that says why, fast,
 * without the server process growing, while the server keeps answering. The bounds are coarse on purpose (a shared
 * machine); what is measured precisely is in bench/hostile-files.ts.
 */
const MB = 1024 * 1024;
/** Before the fix the template PDF below took the server from about 270 MB to 3.7 GB. */
const SERVER_GROWTH_BUDGET = 150 * MB;
/** A 0.9 MB PDF holding one 30000x30000 Flate image, and a 0.9 MB PNG of 30000x30000 pixels. */
const bombPdf = hugeImagePdf(30_000, 30_000);
const bombPng = pngBomb(30_000, 30_000);
const fixture = (name: string) => fs.readFileSync(path.join(process.cwd(), "fixtures/worksheets", name));

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerClinic(t.app, "Hostile Upload Clinic");
  // The loading child is started by a first, ordinary file: what is measured below is the refusal, not a cold start.
  const warm = await post("/api/worksheets/upload", "worksheet", fixture("ws-clean-000.pdf"), "a.pdf");
  expect(warm.statusCode, warm.body).toBe(201);
});
afterAll(async () => {
  await t.close();
  await shutdownOcr();
});

function post(url: string, field: string, data: Buffer, filename: string, fields: Record<string, string> = {}) {
  const contentType = filename.endsWith(".pdf") ? "application/pdf" : "image/png";
  const body = multipart([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: field, filename, contentType, data },
  ]);
  return as(t.app, admin)({ method: "POST", url, ...body });
}

/** Runs the upload while sampling the server's memory and timing a concurrent health check. */
async function underWatch(upload: () => ReturnType<typeof post>) {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const started = performance.now();
  const health = (async () => {
    await new Promise((r) => setTimeout(r, 50));
    const sent = performance.now();
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    return { status: res.statusCode, ms: performance.now() - sent };
  })();
  const res = await upload();
  const uploadMs = performance.now() - started;
  clearInterval(sampler);
  return { res, uploadMs, growth: peak - before, health: await health };
}

describe("decompression bombs are refused before decoding", () => {
  it.each([
    [
      "a worksheet template PDF",
      "/api/worksheet-templates",
      "worksheetFile",
      bombPdf,
      "bomb.pdf",
      /PDF contains an image/,
    ],
    [
      "a worksheet template image",
      "/api/worksheet-templates",
      "worksheetFile",
      bombPng,
      "bomb.png",
      /The image is too/,
    ],
    ["a worksheet PDF", "/api/worksheets/upload", "worksheet", bombPdf, "bomb.pdf", /PDF contains an image/],
    ["a worksheet image", "/api/worksheets/upload", "worksheet", bombPng, "bomb.png", /The image is too/],
    ["a clinic logo", "/api/upload-logo", "logo", bombPng, "bomb.png", /The image is too/],
    ["a physician signature", "/api/upload-signature", "signature", bombPng, "bomb.png", /The image is too/],
  ])("%s: 413 with the reason, fast, the server stays small and answers", async (_, url, field, data, name, says) => {
    const { res, uploadMs, growth, health } = await underWatch(() =>
      post(url, field, data, name, url === "/api/worksheet-templates" ? { name: "Bomb" } : {}),
    );
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ field });
    expect(res.json().error).toMatch(says);
    expect(res.json().error).toContain("30,000 × 30,000 pixels");
    expect(res.json().error).toContain("300 dpi");
    expect(uploadMs).toBeLessThan(3000);
    expect(growth).toBeLessThan(SERVER_GROWTH_BUDGET);
    expect(health.status).toBe(200);
    expect(health.ms).toBeLessThan(1000);
  });

  it("keeps an ordinary PDF working after the refusals, and keeps no template for them", async () => {
    const res = await post("/api/worksheet-templates", "worksheetFile", fixture("ws-clean-007.pdf"), "form.pdf", {
      name: "Ordinary form",
    });
    expect(res.statusCode, res.body).toBe(201);
    const list = (await as(t.app, admin)({ method: "GET", url: "/api/worksheet-templates" })).json();
    expect(list.map((x: { name: string }) => x.name)).toEqual(["Ordinary form"]);
  });
});
