/**
 * Who may do what inside a clinic. Every service checks this first (see docs/permissions.md).
 * Platform administration is separate: it depends on PLATFORM_ADMIN_EMAILS, not on a clinic role.
 */
export const roles = ["admin", "sonographer"] as const;
export type Role = (typeof roles)[number];

export const permissions = {
  "clinic:read": ["admin", "sonographer"],
  "clinic:manage": ["admin"],
  "staff:read": ["admin", "sonographer"],
  "staff:manage": ["admin"],
  "worksheet:upload": ["admin", "sonographer"],
  "worksheet:read": ["admin", "sonographer"],
  "report:read": ["admin", "sonographer"],
  "report:write": ["admin", "sonographer"],
  "report:finalize": ["admin", "sonographer"],
  "report:amend": ["admin", "sonographer"],
  "report:delete": ["admin", "sonographer"],
  "template:read": ["admin", "sonographer"],
  "template:write": ["admin", "sonographer"],
  "shortcut:write": ["admin", "sonographer"],
  "legend:write": ["admin", "sonographer"],
  "drawing:write": ["admin", "sonographer"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export function can(role: string, permission: Permission): boolean {
  return (permissions[permission] as readonly string[]).includes(role);
}
