import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPhysicianUser } from "../../test-support/signing";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";

const REAUTH_PER_USER = 20;
const REAUTH_PER_ADDRESS = 300;

// The re-authentication limits count per signed-in user, not per address: a clinic's physicians behind one NAT
// address sign all day without using up each other's re-authentications. Every request here comes from the same
// address (light-my-request's 127.0.0.1) unless it says otherwise. The clock is injected and does not move, so
// the 15-minute windows stay open for the whole file.
let t: TestApp;
const now = Date.parse("2026-11-25T09:00:00Z");
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  admin = await registerClinic(t.app, "Shared NAT Clinic");
});
afterAll(() => t.close());

const reauthAs = (user: SignedIn, payload: Record<string, unknown>, remoteAddress?: string) =>
  as(t.app, user)({ method: "POST", url: "/api/auth/reauth", payload, ...(remoteAddress ? { remoteAddress } : {}) });

/** The limits' answer: 429 in the app's error shape, with retry-after from the request limits (not the backoff). */
function expectLimited(res: LightMyRequestResponse, retryAfter = true): void {
  expect(res.statusCode, res.body).toBe(429);
  if (retryAfter) {
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(res.json().error).toMatch(/^Rate limit exceeded, retry in \d+ minutes?$/);
  }
  expect(res.json()).toEqual({ error: expect.any(String), code: "RATE_LIMITED", requestId: expect.any(String) });
}

describe("re-authentication limits", () => {
  it("lets two physicians at one address each re-authenticate up to their own limit, then refuses each", async () => {
    const first = await addPhysicianUser(t, admin.clinicId, undefined, { firstName: "Ada", lastName: "One" });
    const second = await addPhysicianUser(t, admin.clinicId, undefined, { firstName: "Bea", lastName: "Two" });
    for (const user of [first, second]) {
      for (let i = 0; i < REAUTH_PER_USER; i++) {
        const res = await reauthAs(user, { password: user.password });
        expect(res.statusCode, `${user.email} attempt ${i + 1}: ${res.body}`).toBe(200);
      }
    }
    expectLimited(await reauthAs(first, { password: first.password }));
    expectLimited(await reauthAs(second, { password: second.password }));
    // A third physician at the same address is not held up by the other two.
    const third = await addPhysicianUser(t, admin.clinicId, undefined, { firstName: "Cy", lastName: "Three" });
    expect((await reauthAs(third, { password: third.password })).statusCode).toBe(200);
  });

  it("still throttles one user's wrong passwords, without slowing a neighbour at the same address", async () => {
    const guesser = await addPhysicianUser(t, admin.clinicId, undefined, { firstName: "Gus", lastName: "Guess" });
    const neighbour = await addPhysicianUser(t, admin.clinicId, undefined, { firstName: "Nel", lastName: "Next" });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await reauthAs(guesser, { password: `guess-${i}` })).statusCode);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429, 429]);
    // Even the right password waits out the backoff: a stolen session cannot keep guessing.
    expectLimited(await reauthAs(guesser, { password: guesser.password }), false);
    expect((await reauthAs(neighbour, { password: neighbour.password })).statusCode).toBe(200);
  });

  it("keeps a looser ceiling per address over all its users", async () => {
    // Fresh users at another address; bodies without an answer (400) are counted too, and cost no hashing.
    const address = "198.51.100.23";
    const users: SignedIn[] = [];
    const needed = Math.ceil(REAUTH_PER_ADDRESS / REAUTH_PER_USER);
    for (let i = 0; i < needed + 1; i++) {
      users.push(await addPhysicianUser(t, admin.clinicId, undefined, { firstName: "Nat", lastName: `User${i}` }));
    }
    let sent = 0;
    for (const user of users.slice(0, needed)) {
      for (let i = 0; i < REAUTH_PER_USER && sent < REAUTH_PER_ADDRESS; i++, sent++) {
        expect((await reauthAs(user, {}, address)).statusCode).toBe(400);
      }
    }
    const last = users[needed]!;
    expectLimited(await reauthAs(last, { password: last.password }, address));
    // The same user from another address is not refused: the ceiling is the address's.
    expect((await reauthAs(last, { password: last.password })).statusCode).toBe(200);
  });
});
