import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { physician } from "../../../domain/contracts/physicians";
import { ApiError, api, isUnauthorizedError, parseAnswer, UnexpectedAnswerError } from "./api";

const body = (code: string) => JSON.stringify({ error: "x", code, requestId: "r" });

describe("the API layer", () => {
  it("knows a signed-out answer by the server's code, not by the message", () => {
    expect(isUnauthorizedError(new ApiError(401, body("UNAUTHORIZED"), "Unauthorized"))).toBe(true);
    // A second factor asked for is a 401 too, but not a lost session.
    expect(isUnauthorizedError(new ApiError(401, body("TOTP_REQUIRED"), "Unauthorized"))).toBe(false);
    expect(isUnauthorizedError(new ApiError(403, body("FORBIDDEN"), "Forbidden"))).toBe(false);
    // A message that merely starts like one is not.
    expect(isUnauthorizedError(new Error("401: Unauthorized"))).toBe(false);
    // A 401 without a JSON body (a proxy in front of the server) is taken as signed out.
    expect(isUnauthorizedError(new ApiError(401, "", "Unauthorized"))).toBe(true);
    expect(new ApiError(428, body("reauth_required"), "").code).toBe("reauth_required");
  });

  it("checks answers against the shared contract and refuses one that does not match", () => {
    const ok = { id: 1, name: "Dr A", title: "MD", specialty: "", signatureUrl: null, userId: null };
    expect(parseAnswer("/api/physicians", z.array(physician), [ok])).toEqual([ok]);
    expect(() => parseAnswer("/api/physicians", z.array(physician), [{ ...ok, id: "1" }])).toThrow(
      UnexpectedAnswerError,
    );
  });

  describe("mutations", () => {
    afterEach(() => vi.unstubAllGlobals());
    const answering = (body: unknown) =>
      vi.stubGlobal(
        "fetch",
        vi.fn(async () => new Response(JSON.stringify(body), { status: 200 })),
      );

    it("parse their answer with the contract: a wrong one is refused, not passed on as typed", async () => {
      const ok = { id: 1, name: "Dr A", title: "MD", specialty: "", signatureUrl: null, userId: null };
      answering(ok);
      await expect(api.send("PATCH", "/api/physicians/1", { userId: null }, physician)).resolves.toEqual(ok);
      answering({ ...ok, signatureUrl: 7 });
      await expect(api.send("PATCH", "/api/physicians/1", { userId: null }, physician)).rejects.toThrow(
        UnexpectedAnswerError,
      );
    });

    // Every call names its contract, the upload page's too.
    it("are never typed by assertion (apiJson)", () => {
      const root = path.resolve(import.meta.dirname, "..");
      const skipped = [path.join("lib", "api.ts"), path.join("lib", "api.test.ts")];
      const asserted = readdirSync(root, { recursive: true, encoding: "utf8" })
        .filter((file) => /\.tsx?$/.test(file) && !skipped.some((skip) => file.startsWith(skip)))
        .filter((file) => /\bapiJson\b/.test(readFileSync(path.join(root, file), "utf8")));
      expect(asserted).toEqual([]);
    });
  });
});
