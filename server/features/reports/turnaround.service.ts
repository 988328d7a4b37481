import type { TurnaroundReport } from "../../../domain/contracts/sign-off";
import { can } from "../../../domain/permissions";
import { calendarDateIn, isoWeekOf, mondayOf, type SignedReport, turnaroundFigures } from "../../../domain/turnaround";
import type { Db } from "../../db/client";
import { assertCan, type Ctx } from "../../platform/context";
import {
  findAwaitingDrafts,
  findFirstSigned,
  findPhysicianOfUser,
  findTurnaroundTarget,
  listClinicPhysicians,
} from "./sign-off.repository";
import { type ClinicClock, toSignOffItem } from "./sign-off.service";

const DAY_MS = 86_400_000;
/** Without from/to: the last eight ISO weeks, this one included. */
const DEFAULT_WEEKS = 8;

const addDays = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

type Dated = SignedReport & { signedDate: string };

/** Figures per ISO week of the signing day, oldest week first. */
function byWeek(reports: Dated[], target: number, timeZone: string) {
  const weeks = new Map<string, Dated[]>();
  for (const r of reports) {
    const week = isoWeekOf(r.signedDate);
    weeks.set(week, [...(weeks.get(week) ?? []), r]);
  }
  return [...weeks.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([week, group]) => ({
      week,
      weekStart: mondayOf(group[0]!.signedDate),
      ...turnaroundFigures(group, target, timeZone),
    }));
}

/**
 * The turnaround dashboard: reports first signed from `from` to `to` (calendar days in the clinic's time zone,
 * inclusive), per physician and per ISO week, counted from the database rows; and the drafts overdue today.
 * An admin sees every physician; a physician the clinic's totals and their own figures.
 */
export async function turnaroundReport(
  db: Db,
  ctx: Ctx,
  query: { from?: string; to?: string },
  clock: ClinicClock,
): Promise<TurnaroundReport> {
  assertCan(ctx, "report:turnaround");
  const { timeZone } = clock;
  const today = calendarDateIn(clock.now, timeZone);
  const to = query.to ?? today;
  const from = query.from ?? mondayOf(addDays(to, -7 * (DEFAULT_WEEKS - 1)));
  const target = await findTurnaroundTarget(db, ctx.clinicId);

  // A day a day wider than the period in instants (any time zone's day lies inside), then exact by calendar day.
  const rows = await findFirstSigned(
    db,
    ctx.clinicId,
    new Date(Date.parse(`${addDays(from, -1)}T00:00:00Z`)),
    new Date(Date.parse(`${addDays(to, 2)}T00:00:00Z`)),
  );
  const signed: Dated[] = rows
    .map((r) => {
      const signedAt = r.firstFinalizedAt!;
      return {
        physicianId: r.physicianId,
        startDate: r.examDate ?? calendarDateIn(r.generatedAt, timeZone),
        startsFrom: r.examDate ? ("exam" as const) : ("generated" as const),
        generatedAt: r.generatedAt,
        signedAt,
        signedDate: calendarDateIn(signedAt, timeZone),
      };
    })
    .filter((r) => r.signedDate >= from && r.signedDate <= to);

  const drafts = (await findAwaitingDrafts(db, ctx.clinicId)).map((row) => toSignOffItem(row, today, target, timeZone));
  const physicianRows = await listClinicPhysicians(db, ctx.clinicId);
  const known = new Set(physicianRows.map((p) => p.id));
  const physicianOf = (id: number | null) => (id !== null && known.has(id) ? id : null);

  const seesAll = can(ctx.user.role, "report:assign");
  const mine = seesAll ? undefined : await findPhysicianOfUser(db, ctx.clinicId, ctx.user.id);
  const shown = seesAll ? physicianRows : physicianRows.filter((p) => p.id === mine?.id);
  const rowsFor = (id: number | null) => signed.filter((r) => physicianOf(r.physicianId) === id);
  const draftsFor = (id: number | null) => drafts.filter((d) => physicianOf(d.physicianId) === id);
  const physicianFigures = (id: number | null, name: string | null) => {
    const own = rowsFor(id);
    const waiting = draftsFor(id);
    return {
      physicianId: id,
      physicianName: name,
      total: turnaroundFigures(own, target, timeZone),
      weeks: byWeek(own, target, timeZone),
      overdueDrafts: waiting.filter((d) => d.overdue).length,
      awaitingDrafts: waiting.length,
    };
  };
  const physicians = shown.map((p) => physicianFigures(p.id, p.name));
  // Reports without a physician of the clinic are the clinic's too; an admin sees them as their own row.
  if (seesAll && (rowsFor(null).length > 0 || draftsFor(null).length > 0))
    physicians.push(physicianFigures(null, null));

  return {
    from,
    to,
    today,
    targetDays: target,
    timeZone,
    clinic: turnaroundFigures(signed, target, timeZone),
    weeks: byWeek(signed, target, timeZone),
    physicians,
    overdueDrafts: drafts.filter((d) => d.overdue).length,
    awaitingDrafts: drafts.length,
  };
}
