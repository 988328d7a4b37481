import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import {
  type Destination,
  type DestinationCreate,
  type DestinationUpdate,
  destinationUrlProblem,
  type ReportDelivery,
} from "../../../domain/contracts/delivery";
import { AppError, notFound } from "../../../domain/errors";
import type { Db, Queryable } from "../../db/client";
import { deliveryDestinations, reportDeliveries } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { JobQueue } from "../../platform/deps";
import type { FileStore } from "../../platform/file-store";
import {
  findDestination,
  findDestinations,
  findLiveReport,
  findReportDeliveries,
  hasPendingDelivery,
  supersedePending,
} from "./delivery.repository";

type DestinationRow = typeof deliveryDestinations.$inferSelect;

const audit = (ctx: Ctx) => ({
  clinicId: ctx.clinicId,
  actorUserId: ctx.user.id,
  ip: ctx.ip,
  requestId: ctx.requestId,
});

/** The token is sealed with the file key (AES-256-GCM), like authenticator secrets. */
export const sealToken = (store: FileStore, token: string) =>
  store.encrypt(Buffer.from(token, "utf8")).toString("base64");
export const openToken = (store: FileStore, sealed: string | null) =>
  sealed ? store.decrypt(Buffer.from(sealed, "base64")).toString("utf8") : null;

export const destinationDto = (row: DestinationRow): Destination => ({
  id: row.id,
  name: row.name,
  kind: row.kind === "mllp" ? "mllp" : "fhir",
  url: row.url,
  host: row.host,
  port: row.port,
  hasToken: Boolean(row.tokenEnc),
  enabled: row.enabled,
});

/** What the audit trail says about a destination: never the token. */
const destinationDetails = (row: DestinationRow) => ({
  kind: row.kind,
  name: row.name,
  url: row.url,
  host: row.host,
  port: row.port,
  enabled: row.enabled,
  hasToken: Boolean(row.tokenEnc),
});

export async function listDestinations(db: Db, ctx: Ctx): Promise<Destination[]> {
  assertCan(ctx, "delivery:manage");
  return (await findDestinations(db, ctx.clinicId)).map(destinationDto);
}

export async function createDestination(
  db: Db,
  store: FileStore,
  ctx: Ctx,
  body: DestinationCreate,
): Promise<Destination> {
  assertCan(ctx, "delivery:manage");
  const values =
    body.kind === "fhir"
      ? { kind: "fhir", url: body.url, tokenEnc: body.token ? sealToken(store, body.token) : null }
      : { kind: "mllp", host: body.host, port: Number(body.port) };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(deliveryDestinations)
      .values({ clinicId: ctx.clinicId, name: body.name, enabled: body.enabled ?? true, ...values })
      .returning();
    await recordAudit(tx, {
      ...audit(ctx),
      action: "delivery.destination_created",
      entityType: "delivery_destination",
      entityId: row!.id,
      details: destinationDetails(row!),
    });
    return destinationDto(row!);
  });
}

export async function updateDestination(
  db: Db,
  store: FileStore,
  ctx: Ctx,
  id: number,
  body: DestinationUpdate,
): Promise<Destination> {
  assertCan(ctx, "delivery:manage");
  return db.transaction(async (tx) => {
    const row = await findDestination(tx, ctx.clinicId, id);
    if (!row) throw notFound("Destination");
    const isFhir = row.kind === "fhir";
    if (isFhir && (body.host !== undefined || body.port !== undefined)) {
      throw new AppError("BAD_REQUEST", "A FHIR server has an address, not a host and port", "host");
    }
    if (!isFhir && (body.url !== undefined || body.token !== undefined)) {
      throw new AppError("BAD_REQUEST", "An MLLP listener has a host and port, not an address or token", "url");
    }
    if (body.url !== undefined) {
      const problem = destinationUrlProblem(body.url);
      if (problem) throw new AppError("BAD_REQUEST", problem, "url");
    }
    const changes: Partial<typeof deliveryDestinations.$inferInsert> = { updatedAt: new Date() };
    if (body.name !== undefined) changes.name = body.name;
    if (body.url !== undefined) changes.url = body.url;
    if (body.host !== undefined) changes.host = body.host;
    if (body.port !== undefined) changes.port = Number(body.port);
    if (body.enabled !== undefined) changes.enabled = body.enabled;
    if (body.token !== undefined) changes.tokenEnc = body.token ? sealToken(store, body.token) : null;
    const [updated] = await tx
      .update(deliveryDestinations)
      .set(changes)
      .where(eq(deliveryDestinations.id, row.id))
      .returning();
    await recordAudit(tx, {
      ...audit(ctx),
      action: "delivery.destination_updated",
      entityType: "delivery_destination",
      entityId: row.id,
      details: { ...destinationDetails(updated!), tokenChanged: body.token !== undefined },
    });
    return destinationDto(updated!);
  });
}

/** Removes the destination and the delivery rows to it; the audit trail keeps what was delivered. */
export async function deleteDestination(db: Db, ctx: Ctx, id: number): Promise<{ success: true; id: number }> {
  assertCan(ctx, "delivery:manage");
  return db.transaction(async (tx) => {
    const row = await findDestination(tx, ctx.clinicId, id);
    if (!row) throw notFound("Destination");
    await tx.delete(deliveryDestinations).where(eq(deliveryDestinations.id, row.id));
    await recordAudit(tx, {
      ...audit(ctx),
      action: "delivery.destination_deleted",
      entityType: "delivery_destination",
      entityId: row.id,
      details: destinationDetails(row),
    });
    return { success: true as const, id: row.id };
  });
}

/**
 * A signature (first, or of an amendment) queues one delivery per enabled destination, in the signing transaction:
 * the rows commit with the signature or not at all. Called by the report service.
 */
export async function enqueueReportDeliveries(
  tx: Queryable,
  ctx: Ctx,
  report: { id: number; amendmentCount: number },
): Promise<number> {
  const destinations = (await findDestinations(tx, ctx.clinicId)).filter((d) => d.enabled);
  if (destinations.length === 0) return 0;
  await supersedePending(
    tx,
    ctx.clinicId,
    report.id,
    destinations.map((d) => d.id),
  );
  await tx.insert(reportDeliveries).values(
    destinations.map((d) => ({
      clinicId: ctx.clinicId,
      reportId: report.id,
      destinationId: d.id,
      amendmentNumber: report.amendmentCount,
      reason: report.amendmentCount > 0 ? "amended" : "finalized",
      requestedBy: ctx.user.id,
    })),
  );
  return destinations.length;
}

/**
 * After a signature or a resend has committed (the job must find the rows): a "deliveries" job now when the report
 * has one waiting, so the first attempt does not wait for the minute's job. A job that cannot be queued loses
 * nothing: the minute's job sends them.
 */
export async function sendDeliveriesNow(
  deps: { db: Db; jobs: Pick<JobQueue, "send">; logger: Pick<Logger, "warn"> },
  ctx: Ctx,
  reportId: number,
): Promise<void> {
  try {
    if (await hasPendingDelivery(deps.db, ctx.clinicId, reportId)) await deps.jobs.send("deliveries", {});
  } catch (error) {
    deps.logger.warn({ err: error }, "delivery: could not queue the job; the next minute's job sends the report");
  }
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export async function listReportDeliveries(db: Db, ctx: Ctx, reportId: number): Promise<ReportDelivery[]> {
  assertCan(ctx, "report:read");
  if (!(await findLiveReport(db, ctx.clinicId, reportId))) throw notFound("Report");
  const rows = await findReportDeliveries(db, ctx.clinicId, reportId);
  return rows.map((r) => ({
    ...r,
    destinationKind: r.destinationKind === "mllp" ? "mllp" : "fhir",
    status: r.status as ReportDelivery["status"],
    nextAttemptAt: r.status === "pending" ? iso(r.nextAttemptAt) : null,
    deliveredAt: iso(r.deliveredAt),
    createdAt: r.createdAt.toISOString(),
  }));
}

/** Sends the report's signed state to that delivery's destination again, as a new delivery (history kept). */
export async function resendDelivery(
  db: Db,
  ctx: Ctx,
  reportId: number,
  deliveryId: number,
): Promise<ReportDelivery[]> {
  assertCan(ctx, "delivery:manage");
  await db.transaction(async (tx) => {
    const report = await findLiveReport(tx, ctx.clinicId, reportId);
    if (!report) throw notFound("Report");
    const [delivery] = await tx
      .select()
      .from(reportDeliveries)
      .where(eq(reportDeliveries.id, deliveryId))
      .then((rows) => rows.filter((r) => r.clinicId === ctx.clinicId && r.reportId === reportId));
    if (!delivery) throw notFound("Delivery");
    if (!report.isFinalized) {
      throw new AppError("CONFLICT", "Only a signed report is sent: sign the amendment first, and it is sent then");
    }
    const destination = await findDestination(tx, ctx.clinicId, delivery.destinationId);
    if (!destination?.enabled) {
      throw new AppError("CONFLICT", "This destination is turned off: turn it on in the clinic settings first");
    }
    await supersedePending(tx, ctx.clinicId, reportId, [destination.id]);
    const [row] = await tx
      .insert(reportDeliveries)
      .values({
        clinicId: ctx.clinicId,
        reportId,
        destinationId: destination.id,
        amendmentNumber: report.amendmentCount,
        reason: "resend",
        requestedBy: ctx.user.id,
      })
      .returning({ id: reportDeliveries.id });
    await recordAudit(tx, {
      ...audit(ctx),
      action: "report.delivery_resent",
      entityType: "report",
      entityId: reportId,
      details: { deliveryId: row!.id, previousDeliveryId: delivery.id, destinationId: destination.id },
    });
  });
  return listReportDeliveries(db, ctx, reportId);
}
