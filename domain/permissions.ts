/**
 * Who may do what inside a clinic. Every service checks this first (see docs/permissions.md).
 * Platform administration is separate: it depends on PLATFORM_ADMIN_EMAILS, not on a clinic role.
 * Holding `report:finalize` is necessary, not sufficient: who may sign one report is decided by
 * `signingDecision` (domain/signing.ts) from the physician linked to it.
 */
export const roles = ["admin", "sonographer", "physician"] as const;
export type Role = (typeof roles)[number];

const all = ["admin", "sonographer", "physician"] as const;
const staff = ["admin", "sonographer"] as const;

export const permissions = {
  "clinic:read": all,
  "clinic:manage": ["admin"],
  "staff:read": staff,
  "staff:manage": ["admin"],
  "worksheet:upload": staff,
  "worksheet:read": all,
  "report:read": all,
  "report:write": all,
  "report:finalize": all,
  "report:amend": all,
  // Telling the referring clinician a critical result is the interpreting physician's duty (or an admin's
  // for the clinic); a sonographer tells the physician, who records the call (docs/permissions.md).
  "report:communicate-critical": ["admin", "physician"],
  "report:delete": staff,
  "report:sign-off": ["admin", "physician"],
  "report:assign": ["admin"],
  "report:turnaround": ["admin", "physician"],
  "template:read": all,
  "template:write": staff,
  "shortcut:write": staff,
  "legend:write": staff,
  "drawing:write": staff,
  /** Where signed reports are sent (FHIR servers, MLLP listeners), and sending one again (issue 28). */
  "delivery:manage": ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export function can(role: string, permission: Permission): boolean {
  return (permissions[permission] as readonly string[]).includes(role);
}

export const roleLabels: Record<Role, string> = { admin: "Admin", sonographer: "Sonographer", physician: "Physician" };
