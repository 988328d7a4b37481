import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { can, type Permission, permissions, roles } from "./permissions";

const all = Object.keys(permissions) as Permission[];

describe("the permission table", () => {
  it("gives admins every permission", () => {
    for (const permission of all) expect(can("admin", permission), permission).toBe(true);
  });

  it("keeps clinic and staff management for admins only", () => {
    const adminOnly = all.filter((p) => !can("sonographer", p) && !can("physician", p));
    expect(adminOnly.sort()).toEqual(["clinic:manage", "delivery:manage", "report:assign", "staff:manage"]);
  });

  it("lets a physician read, edit and sign reports and manage nothing else", () => {
    const granted = all.filter((p) => can("physician", p)).sort();
    expect(granted).toEqual(
      [
        "clinic:read",
        "report:amend",
        "report:communicate-critical",
        "report:finalize",
        "report:read",
        "report:sign-off",
        "report:turnaround",
        "report:write",
        "template:read",
        "worksheet:read",
      ].sort(),
    );
  });

  it("keeps the sign-off worklist and the turnaround dashboard from sonographers (they do not sign)", () => {
    for (const p of ["report:sign-off", "report:turnaround", "report:assign"] as const) {
      expect(can("sonographer", p), p).toBe(false);
    }
  });

  it("lets physicians and admins record a critical result's communication, not sonographers", () => {
    expect(["admin", "physician", "sonographer"].filter((r) => can(r, "report:communicate-critical"))).toEqual([
      "admin",
      "physician",
    ]);
  });

  it("gives an unknown or empty role nothing", () => {
    for (const role of ["", "owner", "Admin", "platform-admin"]) {
      for (const permission of all) expect(can(role, permission)).toBe(false);
    }
  });

  it("only names known roles", () => {
    for (const allowed of Object.values(permissions)) {
      for (const role of allowed) expect(roles).toContain(role);
    }
  });

  it("is documented row by row in docs/permissions.md", () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, "..", "docs", "permissions.md"), "utf8");
    for (const permission of all) {
      const row = doc.split("\n").find((line) => line.startsWith(`| \`${permission}\``));
      expect(row, `docs/permissions.md has no row for ${permission}`).toBeDefined();
      const [admin, sonographer, physician] = row!
        .split("|")
        .slice(2, 5)
        .map((cell) => cell.trim() === "yes");
      expect({ permission, admin, sonographer, physician }).toEqual({
        permission,
        admin: can("admin", permission),
        sonographer: can("sonographer", permission),
        physician: can("physician", permission),
      });
    }
  });
});
