import { describe, expect, it } from "vitest";
import { isReauthFresh, REAUTH_WINDOW_MS, signatureLine, signingDecision } from "./signing";

const now = Date.parse("2026-11-24T10:00:00Z");
const physician = { name: "Dr. Ines Dubois", userId: "doc" };
const facts = { signerUserId: "doc", physician, allowOnBehalf: false, reauthAt: now - 1000, now };

describe("signingDecision", () => {
  it("lets the linked physician sign after a fresh re-authentication", () => {
    expect(signingDecision(facts)).toEqual({ allowed: true, onBehalf: false });
  });

  it("answers 428 to the linked physician without a fresh re-authentication", () => {
    for (const reauthAt of [null, undefined, now - REAUTH_WINDOW_MS, now + 1]) {
      expect(signingDecision({ ...facts, reauthAt })).toMatchObject({ allowed: false, status: 428 });
    }
  });

  it("refuses anyone else with 403 and the physician's name, re-authenticated or not", () => {
    expect(signingDecision({ ...facts, signerUserId: "sono" })).toMatchObject({
      allowed: false,
      status: 403,
      reason: "Only Dr. Ines Dubois can sign this report",
    });
    const unlinked = signingDecision({ ...facts, physician: { ...physician, userId: null } });
    expect(unlinked).toMatchObject({ allowed: false, status: 403 });
    expect(signingDecision({ ...facts, physician: null })).toMatchObject({ allowed: false, status: 403 });
  });

  it("lets staff sign on behalf only when the clinic allows it, still after re-authentication", () => {
    expect(signingDecision({ ...facts, signerUserId: "sono", allowOnBehalf: true })).toEqual({
      allowed: true,
      onBehalf: true,
    });
    expect(signingDecision({ ...facts, signerUserId: "sono", allowOnBehalf: true, reauthAt: null })).toMatchObject({
      status: 428,
    });
    expect(signingDecision({ ...facts, allowOnBehalf: true })).toEqual({ allowed: true, onBehalf: false });
  });
});

describe("re-authentication window", () => {
  it("covers exactly five minutes", () => {
    expect(isReauthFresh(now, now + REAUTH_WINDOW_MS - 1)).toBe(true);
    expect(isReauthFresh(now, now + REAUTH_WINDOW_MS)).toBe(false);
  });
});

describe("signatureLine", () => {
  it("names both people when signed on behalf, never only the physician", () => {
    expect(signatureLine("Sam Sono", "Dr. Ines Dubois", true)).toBe("Signed by Sam Sono on behalf of Dr. Ines Dubois");
    expect(signatureLine("Ines Dubois", "Dr. Ines Dubois", false)).toBe("Signed by Ines Dubois");
  });
});
