import type { z } from "zod";
import type { textShortcutRequest } from "../../../domain/contracts/templates";
import { notFound } from "../../../domain/errors";
import type { Db } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import {
  deleteTextShortcut,
  incrementShortcutUsage,
  insertTextShortcut,
  listTextShortcuts,
  updateTextShortcut,
} from "./text-shortcuts.repository";

type ShortcutInput = z.output<typeof textShortcutRequest>;

const audit = (
  ctx: Ctx,
  action: "shortcut.created" | "shortcut.updated" | "shortcut.deleted" | "shortcut.used",
  id: number,
) => ({
  action,
  clinicId: ctx.clinicId,
  actorUserId: ctx.user.id,
  entityType: "text_shortcut",
  entityId: id,
  ip: ctx.ip,
  requestId: ctx.requestId,
});

export async function listShortcuts(db: Db, ctx: Ctx) {
  assertCan(ctx, "template:read");
  return listTextShortcuts(db, ctx.clinicId);
}

export async function createShortcut(db: Db, ctx: Ctx, input: ShortcutInput) {
  assertCan(ctx, "shortcut:write");
  return db.transaction(async (tx) => {
    const row = await insertTextShortcut(tx, { ...input, clinicId: ctx.clinicId, userId: ctx.user.id });
    await recordAudit(tx, audit(ctx, "shortcut.created", row.id));
    return row;
  });
}

export async function updateShortcut(db: Db, ctx: Ctx, id: number, input: ShortcutInput) {
  assertCan(ctx, "shortcut:write");
  return db.transaction(async (tx) => {
    const row = await updateTextShortcut(tx, ctx.clinicId, id, input);
    if (!row) throw notFound("Text shortcut");
    await recordAudit(tx, audit(ctx, "shortcut.updated", id));
    return row;
  });
}

export async function deleteShortcut(db: Db, ctx: Ctx, id: number) {
  assertCan(ctx, "shortcut:write");
  await db.transaction(async (tx) => {
    const row = await deleteTextShortcut(tx, ctx.clinicId, id);
    if (!row) throw notFound("Text shortcut");
    await recordAudit(tx, audit(ctx, "shortcut.deleted", id));
  });
}

/** Insert or copy in the editor: counted, and audited as a use so the count can be explained. */
export async function useShortcut(db: Db, ctx: Ctx, id: number) {
  assertCan(ctx, "template:read");
  return db.transaction(async (tx) => {
    const row = await incrementShortcutUsage(tx, ctx.clinicId, id);
    if (!row) throw notFound("Text shortcut");
    await recordAudit(tx, audit(ctx, "shortcut.used", id));
    return row;
  });
}
