import { and, asc, desc, eq, inArray, lte, or } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { deliveryDestinations, reportDeliveries, reports } from "../../db/schema";

/** Destinations and deliveries of one clinic; every query is scoped to the clinic (another clinic's id: none). */

export const findDestinations = (db: Queryable, clinicId: number) =>
  db
    .select()
    .from(deliveryDestinations)
    .where(eq(deliveryDestinations.clinicId, clinicId))
    .orderBy(asc(deliveryDestinations.name), asc(deliveryDestinations.id));

export const findDestination = (db: Queryable, clinicId: number, id: number) =>
  db
    .select()
    .from(deliveryDestinations)
    .where(and(eq(deliveryDestinations.clinicId, clinicId), eq(deliveryDestinations.id, id)))
    .then((rows) => rows[0]);

export const findLiveReport = (db: Queryable, clinicId: number, id: number) =>
  db
    .select({
      id: reports.id,
      isFinalized: reports.isFinalized,
      amendmentCount: reports.amendmentCount,
      deletedAt: reports.deletedAt,
    })
    .from(reports)
    .where(and(eq(reports.clinicId, clinicId), eq(reports.id, id)))
    .then((rows) => (rows[0] && !rows[0].deletedAt ? rows[0] : undefined));

export const findReportDeliveries = (db: Queryable, clinicId: number, reportId: number) =>
  db
    .select({
      id: reportDeliveries.id,
      destinationId: reportDeliveries.destinationId,
      destinationName: deliveryDestinations.name,
      destinationKind: deliveryDestinations.kind,
      reason: reportDeliveries.reason,
      amendmentNumber: reportDeliveries.amendmentNumber,
      status: reportDeliveries.status,
      attempts: reportDeliveries.attempts,
      lastError: reportDeliveries.lastError,
      nextAttemptAt: reportDeliveries.nextAttemptAt,
      deliveredAt: reportDeliveries.deliveredAt,
      createdAt: reportDeliveries.createdAt,
    })
    .from(reportDeliveries)
    .innerJoin(deliveryDestinations, eq(deliveryDestinations.id, reportDeliveries.destinationId))
    .where(and(eq(reportDeliveries.clinicId, clinicId), eq(reportDeliveries.reportId, reportId)))
    .orderBy(desc(reportDeliveries.createdAt), desc(reportDeliveries.id));

/** Earlier deliveries of the report not yet sent are replaced by the new signed state (or the resend). */
export async function supersedePending(tx: Queryable, clinicId: number, reportId: number, destinationIds: number[]) {
  if (destinationIds.length === 0) return;
  await tx
    .update(reportDeliveries)
    .set({ status: "superseded", lockedUntil: null, updatedAt: new Date() })
    .where(
      and(
        eq(reportDeliveries.clinicId, clinicId),
        eq(reportDeliveries.reportId, reportId),
        inArray(reportDeliveries.destinationId, destinationIds),
        eq(reportDeliveries.status, "pending"),
      ),
    );
}

/** Whether the report has a delivery waiting to be sent (so a job is worth queuing). */
export const hasPendingDelivery = (db: Queryable, clinicId: number, reportId: number) =>
  db
    .select({ id: reportDeliveries.id })
    .from(reportDeliveries)
    .where(
      and(
        eq(reportDeliveries.clinicId, clinicId),
        eq(reportDeliveries.reportId, reportId),
        eq(reportDeliveries.status, "pending"),
      ),
    )
    .limit(1)
    .then((rows) => rows.length > 0);

/** Rows due now: pending ones whose time has come, and "sending" ones whose sender stopped (lock expired). */
export const dueDeliveries = (now: Date) =>
  or(
    and(eq(reportDeliveries.status, "pending"), lte(reportDeliveries.nextAttemptAt, now)),
    and(eq(reportDeliveries.status, "sending"), lte(reportDeliveries.lockedUntil, now)),
  );
