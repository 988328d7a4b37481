import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { deliveryDestinations, reportDeliveries } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import type { Ctx } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import { retryDelayMs } from "../../platform/retry-delay";
import { fhirBundleOf, hl7MessageOf, loadInteropReport } from "../exports/interop.service";
import { dueDeliveries, findLiveReport } from "./delivery.repository";
import { openToken } from "./delivery.service";
import { postFhirTransaction, sendMllp } from "./senders";

/**
 * Delivery passes (docs/decisions/019-report-delivery.md), run by the "deliveries" job (jobs/handlers.ts): a pass
 * claims due rows of `report_deliveries` (FOR UPDATE SKIP LOCKED, so several workers share the work without sending
 * a row twice), sends each and records the outcome: delivered, or the error and the next attempt after a doubling
 * wait, or failed after the last attempt. The table, not the job, holds each delivery's state and retries.
 */

export type DeliveryWorkerDeps = {
  db: Db;
  fileStore: FileStore;
  logger: Pick<Logger, "info" | "warn" | "error">;
  delivery: Config["delivery"];
  timeZone?: string;
};

export type DeliveryWorkerOptions = {
  /** Per attempt: connecting, sending and waiting for the answer. */
  timeoutMs?: number;
  batchSize?: number;
  now?: () => Date;
};

/** A job starts no new pass after this, well inside the queue's expiry; the next minute's job goes on. */
const RUN_BUDGET_MS = 120_000;

export { retryDelayMs };

/** Deliveries run for the clinic, not for a person: the rows read are the clinic's own, as an export reads them. */
function deliveryContext(clinicId: number): Ctx {
  return {
    clinicId,
    user: {
      id: "system:delivery",
      email: "",
      firstName: null,
      lastName: null,
      role: "admin",
      clinicId,
      clinicName: null,
      isPlatformAdmin: false,
      totpEnabled: false,
    },
  };
}

type Claimed = typeof reportDeliveries.$inferSelect;

export class DeliveryWorker {
  private running: Promise<number> | null = null;
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private readonly now: () => Date;

  constructor(
    private readonly deps: DeliveryWorkerDeps,
    options: DeliveryWorkerOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.batchSize = options.batchSize ?? 5;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * What one "deliveries" job does: passes until one finds less than a full batch (all that was due is handled) or
   * the budget is spent. Answers how many rows it handled.
   */
  async runDue(): Promise<number> {
    const started = Date.now();
    let handled = 0;
    for (;;) {
      const claimed = await this.tick();
      handled += claimed;
      if (claimed < this.batchSize || Date.now() - started > RUN_BUDGET_MS) return handled;
    }
  }

  /** One pass: claims and sends what is due; answers how many rows it handled. Passes never overlap. */
  tick(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<number> {
    let claimed: Claimed[];
    try {
      claimed = await this.claim();
    } catch (error) {
      this.deps.logger.error({ err: error }, "delivery: could not read the due deliveries");
      return 0;
    }
    for (const row of claimed) await this.processDelivery(row);
    return claimed.length;
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.now();
    return this.deps.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: reportDeliveries.id })
        .from(reportDeliveries)
        .where(dueDeliveries(now))
        .orderBy(asc(reportDeliveries.nextAttemptAt), asc(reportDeliveries.id))
        .limit(this.batchSize)
        .for("update", { skipLocked: true });
      if (due.length === 0) return [];
      // A sender that dies mid-attempt leaves "sending"; the row is taken again once this lock has passed.
      const lockedUntil = new Date(now.getTime() + this.timeoutMs * 2 + 60_000);
      return tx
        .update(reportDeliveries)
        .set({ status: "sending", lockedUntil, attempts: sql`${reportDeliveries.attempts} + 1`, updatedAt: now })
        .where(
          inArray(
            reportDeliveries.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  private async finish(row: Claimed, values: Partial<Claimed>, audit?: "report.delivered" | "report.delivery_failed") {
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(reportDeliveries)
        .set({ ...values, lockedUntil: null, updatedAt: this.now() })
        .where(eq(reportDeliveries.id, row.id));
      if (audit) {
        await recordAudit(tx, {
          action: audit,
          clinicId: row.clinicId,
          entityType: "report",
          entityId: row.reportId,
          details: {
            deliveryId: row.id,
            destinationId: row.destinationId,
            attempts: row.attempts,
            amendmentNumber: row.amendmentNumber,
            ...(values.lastError ? { error: values.lastError } : {}),
          },
        });
      }
    });
  }

  /** Sends one claimed delivery and records the outcome. */
  async processDelivery(row: Claimed): Promise<void> {
    const { db } = this.deps;
    const report = await findLiveReport(db, row.clinicId, row.reportId);
    // The report was amended after this signature: the amendment is sent when it is signed, not this older state.
    if (!report?.isFinalized || report.amendmentCount !== row.amendmentNumber) {
      return this.finish(row, {
        status: "superseded",
        lastError: "The report was amended after this signature; the amendment is sent when it is signed",
      });
    }
    const [destination] = await db
      .select()
      .from(deliveryDestinations)
      .where(eq(deliveryDestinations.id, row.destinationId));
    if (!destination?.enabled) {
      return this.finish(
        row,
        { status: "failed", lastError: "The destination was turned off before the report was sent" },
        "report.delivery_failed",
      );
    }
    try {
      const input = await loadInteropReport(
        { db, fileStore: this.deps.fileStore, timeZone: this.deps.timeZone },
        deliveryContext(row.clinicId),
        row.reportId,
      );
      const options = { allowLoopback: this.deps.delivery.allowLoopback, timeoutMs: this.timeoutMs };
      if (destination.kind === "mllp") {
        await sendMllp(destination.host ?? "", destination.port ?? 0, hl7MessageOf(input, this.now()), options);
      } else {
        const token = openToken(this.deps.fileStore, destination.tokenEnc);
        const bundle = JSON.stringify(fhirBundleOf(input, "transaction", this.now()));
        await postFhirTransaction(destination.url ?? "", bundle, token, options);
      }
      await this.finish(row, { status: "delivered", deliveredAt: this.now(), lastError: null }, "report.delivered");
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (row.attempts >= this.deps.delivery.maxAttempts) {
        this.deps.logger.warn(
          { deliveryId: row.id, attempts: row.attempts },
          "delivery: failed after the last attempt",
        );
        await this.finish(row, { status: "failed", lastError: message }, "report.delivery_failed");
      } else {
        const next = new Date(this.now().getTime() + retryDelayMs(this.deps.delivery.retryBaseMs, row.attempts));
        await this.finish(row, { status: "pending", lastError: message, nextAttemptAt: next });
      }
    }
  }
}
