import { describe, expect, it } from "vitest";
import { readSsoReauthReturn, ssoReauthNext, withoutSsoReauthReturn } from "./sso-reauth-return";

describe("the return from a single sign-on re-authentication", () => {
  it("says it succeeded and names the report whose dialog started it", () => {
    expect(readSsoReauthReturn("?page=2&sign=17&reauth=ok")).toEqual({
      confirmed: true,
      reportId: 17,
      message: expect.stringContaining("You confirmed it is you"),
    });
  });

  it("says why nothing was confirmed, in words, for every reason the server gives", () => {
    expect(readSsoReauthReturn("?reauth=not_you&sign=3")).toMatchObject({ confirmed: false, reportId: 3 });
    expect(readSsoReauthReturn("?reauth=not_fresh")?.message).toMatch(/did not ask for your password again/);
    expect(readSsoReauthReturn("?reauth=whatever")?.message).toMatch(/Nothing was confirmed/);
  });

  it("is not a return without ?reauth, and ignores a report id that is not one", () => {
    expect(readSsoReauthReturn("?sign=3")).toBeNull();
    expect(readSsoReauthReturn("?reauth=ok&sign=abc")?.reportId).toBeNull();
    expect(readSsoReauthReturn("?reauth=ok&sign=-4")?.reportId).toBeNull();
  });

  it("builds the page to come back to and removes the return from it afterwards", () => {
    expect(ssoReauthNext("/reports?page=2&reauth=ok", 9)).toBe("/reports?page=2&sign=9");
    expect(withoutSsoReauthReturn("/reports?page=2&sign=9&reauth=ok")).toBe("/reports?page=2");
    expect(withoutSsoReauthReturn("/?reauth=state")).toBe("/");
  });
});
