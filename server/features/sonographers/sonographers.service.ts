import type { Sonographer, sonographerInput } from "../../../domain/contracts/sonographers";
import { AppError, notFound } from "../../../domain/errors";
import type { Db, Queryable } from "../../db/client";
import type { sonographers } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import {
  countRecordsOfSonographer,
  deleteSonographer,
  findSonographer,
  insertSonographer,
  listSonographers,
  updateSonographer,
} from "./sonographers.repository";

type Input = ReturnType<typeof sonographerInput.parse>;
type Row = Omit<typeof sonographers.$inferSelect, "clinicId">;

const toDto = (row: Row): Sonographer => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const audit = (
  ctx: Ctx,
  action: "sonographer.created" | "sonographer.updated" | "sonographer.deleted",
  id: number,
) => ({
  action,
  clinicId: ctx.clinicId,
  actorUserId: ctx.user.id,
  entityType: "sonographer",
  entityId: id,
  ip: ctx.ip,
  requestId: ctx.requestId,
});

export async function getSonographers(db: Queryable, ctx: Ctx): Promise<Sonographer[]> {
  assertCan(ctx, "clinic:read");
  return (await listSonographers(db, ctx.clinicId)).map(toDto);
}

export async function createSonographer(db: Db, ctx: Ctx, input: Input): Promise<Sonographer> {
  assertCan(ctx, "clinic:manage");
  return db.transaction(async (tx) => {
    const row = await insertSonographer(tx, ctx.clinicId, input);
    await recordAudit(tx, audit(ctx, "sonographer.created", row.id));
    return toDto(row);
  });
}

export async function replaceSonographer(db: Db, ctx: Ctx, id: number, input: Input): Promise<Sonographer> {
  assertCan(ctx, "clinic:manage");
  return db.transaction(async (tx) => {
    const row = await updateSonographer(tx, ctx.clinicId, id, input);
    if (!row) throw notFound("Sonographer");
    await recordAudit(tx, audit(ctx, "sonographer.updated", id));
    return toDto(row);
  });
}

/** Like physicians: a sonographer named by reports or drawing sessions stays, so those records stay whole. */
export async function removeSonographer(db: Db, ctx: Ctx, id: number): Promise<void> {
  assertCan(ctx, "clinic:manage");
  await db.transaction(async (tx) => {
    if (!(await findSonographer(tx, ctx.clinicId, id))) throw notFound("Sonographer");
    const used = await countRecordsOfSonographer(tx, ctx.clinicId, id);
    if (used.reports + used.drawings > 0) {
      const parts = [
        used.reports ? `${used.reports} report${used.reports === 1 ? "" : "s"}` : null,
        used.drawings ? `${used.drawings} drawing session${used.drawings === 1 ? "" : "s"}` : null,
      ].filter(Boolean);
      throw new AppError("CONFLICT", `This sonographer is used by ${parts.join(" and ")}`);
    }
    await deleteSonographer(tx, ctx.clinicId, id);
    await recordAudit(tx, audit(ctx, "sonographer.deleted", id));
  });
}
