import { describe, expect, it } from "vitest";
import { runFuzz } from "../bench/fuzz-routes";

/**
 * A reduced run of bench/fuzz-routes.ts (the full run is `npm run bench:fuzz -- --requests 12000`): every route
 * gets malformed requests as a clinic user, anonymously and with a forged cookie; no 5xx, nothing accepted,
 * nothing written, the server still answers.
 */
describe("malformed requests to every route", () => {
  it("are refused without a 5xx and without writing anything", { timeout: 240_000 }, async () => {
    const summary = await runFuzz({ requests: Number(process.env.FUZZ_REQUESTS ?? 1500) });
    expect(summary.routes).toBeGreaterThan(60);
    expect(summary.total).toBeGreaterThanOrEqual(1500);
    expect(summary.failures, summary.failures.slice(0, 20).join("\n")).toEqual([]);
  });
});
