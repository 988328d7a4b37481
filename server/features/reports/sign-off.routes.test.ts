import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClinicRecord } from "../../../domain/contracts/clinic";
import type { Report } from "../../../domain/contracts/reports";
import type { SignOffWorklist, TurnaroundReport } from "../../../domain/contracts/sign-off";
import { auditEvents, reports, reportVersions } from "../../db/schema";
import { addPhysicianUser, communicateCritical, reauth } from "../../test-support/signing";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { addSonographer, insertPhysician, insertWorksheet } from "./report-test-fixtures";

// Issue 26: the sign-off worklist, reassigning a draft and the turnaround dashboard. The clock is injected:
// "today" is Thursday 26 November 2026 (noon UTC, the same calendar day in any server time zone within 11 h).
// 2026-11-16 is a Monday; 20 a Friday; 23 a Monday; 24 a Tuesday; 25 a Wednesday.
let t: TestApp;
let now = Date.parse("2026-11-26T12:00:00Z");
let admin: SignedIn;
let sono: SignedIn;
let doctor: SignedIn;
let colleague: SignedIn;
let unlinked: SignedIn;
let adminB: SignedIn;
let doctorB: SignedIn;
let p1: number;
let p2: number;
let pB: number;

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  admin = await registerClinic(t.app, "Clinic A");
  sono = await addSonographer(t, admin.clinicId);
  p1 = (await insertPhysician(t, admin.clinicId, "Dr. Ines Dubois")).id;
  p2 = (await insertPhysician(t, admin.clinicId, "Dr. Omar Haddad")).id;
  doctor = await addPhysicianUser(t, admin.clinicId, p1, { firstName: "Ines", lastName: "Dubois" });
  colleague = await addPhysicianUser(t, admin.clinicId, p2, { firstName: "Omar", lastName: "Haddad" });
  unlinked = await addPhysicianUser(t, admin.clinicId, undefined, { firstName: "Una", lastName: "Linked" });
  adminB = await registerClinic(t.app, "Clinic B");
  pB = (await insertPhysician(t, adminB.clinicId, "Dr. Bea Other")).id;
  doctorB = await addPhysicianUser(t, adminB.clinicId, pB, { firstName: "Bea", lastName: "Other" });
});
afterAll(() => t.close());

const call = (user: SignedIn) => as(t.app, user);

type Row = Partial<typeof reports.$inferInsert> & { clinicId: number };
async function insertReport(values: Row): Promise<number> {
  const [row] = await t.deps.database.db
    .insert(reports)
    .values({
      patientName: "Patient",
      studyType: "Carotid Duplex",
      indication: "-",
      findings: "-",
      impression: "-",
      generatedAt: new Date("2026-11-16T10:00:00Z"),
      ...values,
    })
    .returning({ id: reports.id });
  return row!.id;
}

const worklist = async (user: SignedIn) => {
  const res = await call(user)({ url: "/api/reports/sign-off" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SignOffWorklist;
};

const turnaround = async (user: SignedIn, query = "from=2026-11-16&to=2026-11-26") => {
  const res = await call(user)({ url: `/api/reports/turnaround?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TurnaroundReport;
};

describe("the sign-off worklist", () => {
  let oldest: number;
  let due: number;
  let other: number;
  let unassigned: number;

  beforeAll(async () => {
    const worksheet = await insertWorksheet(t, admin.clinicId);
    const c = admin.clinicId;
    due = await insertReport({ clinicId: c, physicianId: p1, patientName: "Due Tuesday", examDate: "2026-11-24" });
    oldest = await insertReport({
      clinicId: c,
      physicianId: p1,
      patientName: "Oldest Monday",
      examDate: "2026-11-23",
      worksheetId: worksheet.id,
      warnings: ["Right ICA EDV not read"],
      mrn: "MRN-1",
    });
    await insertReport({
      clinicId: c,
      physicianId: p1,
      patientName: "Signed",
      examDate: "2026-11-02",
      isFinalized: true,
      isDraft: false,
    });
    await insertReport({
      clinicId: c,
      physicianId: p1,
      patientName: "Deleted",
      examDate: "2026-11-02",
      deletedAt: new Date(),
    });
    other = await insertReport({ clinicId: c, physicianId: p2, patientName: "Colleague's", examDate: "2026-11-20" });
    unassigned = await insertReport({ clinicId: c, physicianId: null, patientName: "Nobody's", examDate: null });
    await insertReport({
      clinicId: adminB.clinicId,
      physicianId: pB,
      patientName: "Clinic B patient",
      examDate: "2026-11-01",
    });
  });

  it("answers 401 signed out and 403 to a sonographer (they do not sign)", async () => {
    expect((await t.app.inject({ url: "/api/reports/sign-off" })).statusCode).toBe(401);
    const res = await call(sono)({ url: "/api/reports/sign-off" });
    expect(res.statusCode).toBe(403);
  });

  it("gives a physician their own drafts only, oldest exam first, with study, worksheet, warnings and age", async () => {
    const list = await worklist(doctor);
    expect(list.scope).toBe("mine");
    expect(list.myPhysicianId).toBe(p1);
    expect(list.today).toBe("2026-11-26");
    expect(list.targetDays).toBe(2);
    expect(list.queues).toHaveLength(1);
    const [queue] = list.queues;
    expect(queue!.physicianName).toBe("Dr. Ines Dubois");
    expect(queue!.items.map((i) => i.id)).toEqual([oldest, due]);
    const [first, second] = queue!.items;
    expect(first).toMatchObject({
      patientName: "Oldest Monday",
      studyType: "Carotid Duplex",
      examDate: "2026-11-23",
      mrn: "MRN-1",
      worksheetImageUrl: `/api/worksheets/${await worksheetOf(oldest)}/image`,
      warnings: ["Right ICA EDV not read"],
      waitingSince: "2026-11-23",
      waitingFrom: "exam",
      // Monday exam, Thursday: Tue, Wed, Thu = 3 working days, past the target of 2.
      workingDays: 3,
      calendarDays: 3,
      overdue: true,
    });
    // Tuesday exam, Thursday: exactly 2 working days, still within the target.
    expect(second).toMatchObject({ workingDays: 2, overdue: false, worksheetImageUrl: null });
    expect(queue!.overdueCount).toBe(1);
  });

  it("gives a physician account linked to no physician an empty worklist", async () => {
    const list = await worklist(unlinked);
    expect(list).toMatchObject({ scope: "mine", myPhysicianId: null, queues: [] });
  });

  it("gives an admin every physician's queue and the unassigned drafts, and never another clinic's", async () => {
    const list = await worklist(admin);
    expect(list.scope).toBe("clinic");
    const byName = Object.fromEntries(
      list.queues.map((q) => [q.physicianName ?? "unassigned", q.items.map((i) => i.id)]),
    );
    expect(byName).toEqual({ "Dr. Ines Dubois": [oldest, due], "Dr. Omar Haddad": [other], unassigned: [unassigned] });
    expect(list.queues.find((q) => q.physicianId === p1)!.signerUserId).toBe(doctor.userId);
    // The unassigned draft has no exam date: it waits from the day it was generated.
    expect(list.queues.at(-1)!.items[0]).toMatchObject({ waitingFrom: "generated", waitingSince: "2026-11-16" });
    const listB = await worklist(adminB);
    const idsB = listB.queues.flatMap((q) => q.items.map((i) => i.patientName));
    expect(idsB).toEqual(["Clinic B patient"]);
    expect((await worklist(doctorB)).queues[0]!.items.map((i) => i.patientName)).toEqual(["Clinic B patient"]);
  });

  it("follows the clinic's turnaround target", async () => {
    await setTarget(3);
    const items = (await worklist(doctor)).queues[0]!.items;
    expect(items.map((i) => i.overdue)).toEqual([false, false]);
    await setTarget(2);
  });

  describe("reassigning a draft", () => {
    const reassign = (user: SignedIn, id: number, physicianId: number | null) =>
      call(user)({ method: "PATCH", url: `/api/reports/${id}/physician`, payload: { physicianId } });

    it("is an admin's act: a physician or a sonographer gets 403, also through the report edit", async () => {
      for (const user of [doctor, colleague, sono]) {
        expect((await reassign(user, other, p1)).statusCode).toBe(403);
        const edit = await call(user)({ method: "PATCH", url: `/api/reports/${other}`, payload: { physicianId: p1 } });
        expect(edit.statusCode, edit.body).toBe(403);
        expect(edit.json().field).toBe("physicianId");
      }
      expect((await worklist(colleague)).queues[0]!.items.map((i) => i.id)).toEqual([other]);
    });

    it("moves the draft to the other physician's queue, stored as a version and audited", async () => {
      const res = await reassign(admin, unassigned, p2);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as Report).physicianId).toBe(p2);
      expect((await worklist(colleague)).queues[0]!.items.map((i) => i.id)).toEqual([unassigned, other]);
      const [event] = await t.deps.database.db
        .select({ details: auditEvents.details, actor: auditEvents.actorUserId })
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "report.reassigned"), eq(auditEvents.entityId, String(unassigned))))
        .orderBy(desc(auditEvents.id));
      expect(event).toMatchObject({ actor: admin.userId, details: { fromPhysicianId: null, toPhysicianId: p2 } });
      const versions = await t.deps.database.db
        .select({ kind: reportVersions.kind })
        .from(reportVersions)
        .where(eq(reportVersions.reportId, unassigned));
      expect(versions.map((v) => v.kind)).toEqual(["edited"]);
    });

    it("refuses another clinic's report or physician with 404 and a signed report with 409", async () => {
      expect((await reassign(adminB, oldest, pB)).statusCode).toBe(404);
      const foreign = await reassign(admin, oldest, pB);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().field).toBe("physicianId");
      const signed = await insertReport({
        clinicId: admin.clinicId,
        physicianId: p1,
        isFinalized: true,
        isDraft: false,
      });
      expect((await reassign(admin, signed, p2)).statusCode).toBe(409);
      expect((await reassign(admin, oldest, "x" as never)).statusCode).toBe(400);
    });
  });
});

async function worksheetOf(reportId: number): Promise<number | null> {
  const [row] = await t.deps.database.db
    .select({ id: reports.worksheetId })
    .from(reports)
    .where(eq(reports.id, reportId));
  return row?.id ?? null;
}

async function setTarget(days: number) {
  const clinic = (await call(admin)({ url: "/api/clinic" })).json() as ClinicRecord;
  const res = await call(admin)({
    method: "PUT",
    url: `/api/clinic/${admin.clinicId}`,
    payload: { name: clinic.name, email: clinic.email, turnaroundTargetDays: days },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect((res.json() as ClinicRecord).turnaroundTargetDays).toBe(days);
}

describe("the clinic's turnaround target", () => {
  it("defaults to 2 working days and refuses what is not a whole number from 0 to 30", async () => {
    const clinic = (await call(adminB)({ url: "/api/clinic" })).json() as ClinicRecord;
    expect(clinic.turnaroundTargetDays).toBe(2);
    for (const bad of [31, -1, 1.5, "2", null]) {
      const res = await call(adminB)({
        method: "PUT",
        url: `/api/clinic/${adminB.clinicId}`,
        payload: { name: clinic.name, email: clinic.email, turnaroundTargetDays: bad },
      });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().error).toBe("The turnaround target must be a whole number of working days from 0 to 30");
    }
  });
});

describe("the turnaround dashboard", () => {
  let clinic: SignedIn;
  let doc: SignedIn;
  let docPhysician: number;
  let peerPhysician: number;

  beforeAll(async () => {
    clinic = await registerClinic(t.app, "Turnaround Clinic");
    docPhysician = (await insertPhysician(t, clinic.clinicId, "Dr. Tara Quick")).id;
    peerPhysician = (await insertPhysician(t, clinic.clinicId, "Dr. Paul Peer")).id;
    doc = await addPhysicianUser(t, clinic.clinicId, docPhysician, { firstName: "Tara", lastName: "Quick" });
    const c = clinic.clinicId;
    const signed = (physicianId: number, examDate: string | null, at: string, generatedAt = "2026-11-16T08:00:00Z") =>
      insertReport({
        clinicId: c,
        physicianId,
        examDate,
        generatedAt: new Date(generatedAt),
        isFinalized: true,
        isDraft: false,
        finalizedAt: new Date(at),
        firstFinalizedAt: new Date(at),
      });
    // Dr Quick: Mon -> Wed (2, within), Mon -> Thu (3, late), Fri -> Tue (2, within).
    await signed(docPhysician, "2026-11-16", "2026-11-18T12:00:00Z");
    await signed(docPhysician, "2026-11-16", "2026-11-19T12:00:00Z");
    await signed(docPhysician, "2026-11-20", "2026-11-24T12:00:00Z", "2026-11-20T09:00:00Z");
    // Dr Peer: no exam date, timed from generation on Mon 16, signed Mon 23 (5, late).
    await signed(peerPhysician, null, "2026-11-23T12:00:00Z");
    // Outside the period: signed 13 Nov.
    await signed(peerPhysician, "2026-11-12", "2026-11-13T12:00:00Z", "2026-11-12T08:00:00Z");
    // Drafts: one overdue (Mon 23 exam), one due (Tue 24 exam).
    await insertReport({ clinicId: c, physicianId: docPhysician, examDate: "2026-11-23" });
    await insertReport({ clinicId: c, physicianId: docPhysician, examDate: "2026-11-24" });
  });

  it("answers 401 signed out and 403 to a sonographer", async () => {
    expect((await t.app.inject({ url: "/api/reports/turnaround" })).statusCode).toBe(401);
    expect((await call(sono)({ url: "/api/reports/turnaround" })).statusCode).toBe(403);
  });

  it("counts per physician and per ISO week from the database: signed, median, share within the target", async () => {
    const report = await turnaround(clinic);
    expect(report).toMatchObject({ from: "2026-11-16", to: "2026-11-26", today: "2026-11-26", targetDays: 2 });
    expect(report.clinic).toEqual({
      signed: 4,
      medianWorkingDays: 2.5, // 2, 2, 3, 5
      medianHoursGeneratedToSigned: 87.5, // 52, 76, 99, 172 hours
      withinTarget: 2,
      shareWithinTarget: 0.5,
      timedFromGenerated: 1,
    });
    const quick = report.physicians.find((p) => p.physicianId === docPhysician)!;
    expect(quick.total).toMatchObject({ signed: 3, medianWorkingDays: 2, withinTarget: 2 });
    expect(quick.total.shareWithinTarget).toBeCloseTo(2 / 3, 10);
    expect(quick.weeks.map((w) => [w.week, w.weekStart, w.signed, w.withinTarget])).toEqual([
      ["2026-W47", "2026-11-16", 2, 1],
      ["2026-W48", "2026-11-23", 1, 1],
    ]);
    expect(quick).toMatchObject({ overdueDrafts: 1, awaitingDrafts: 2 });
    const peer = report.physicians.find((p) => p.physicianId === peerPhysician)!;
    expect(peer.total).toMatchObject({ signed: 1, medianWorkingDays: 5, shareWithinTarget: 0, timedFromGenerated: 1 });
    expect(report.weeks.map((w) => [w.week, w.signed])).toEqual([
      ["2026-W47", 2],
      ["2026-W48", 2],
    ]);
    expect(report).toMatchObject({ overdueDrafts: 1, awaitingDrafts: 2 });
  });

  it("gives a physician the clinic's figures and their own row only", async () => {
    const report = await turnaround(doc);
    expect(report.clinic.signed).toBe(4);
    expect(report.physicians.map((p) => p.physicianId)).toEqual([docPhysician]);
  });

  it("never shows another clinic's reports", async () => {
    const report = await turnaround(adminB);
    expect(report.clinic.signed).toBe(0);
    expect(report.physicians.map((p) => p.physicianName)).toEqual(["Dr. Bea Other"]);
  });

  it("limits the period to the chosen days and refuses a reversed or overlong one", async () => {
    const oneDay = await turnaround(clinic, "from=2026-11-24&to=2026-11-24");
    expect(oneDay.clinic.signed).toBe(1);
    for (const query of ["from=2026-11-20&to=2026-11-19", "from=2025-01-01&to=2026-11-26", "from=yesterday"]) {
      expect((await call(clinic)({ url: `/api/reports/turnaround?${query}` })).statusCode, query).toBe(400);
    }
  });

  it("defaults to the last eight ISO weeks up to today", async () => {
    const report = await turnaround(clinic, "");
    expect(report).toMatchObject({ from: "2026-10-05", to: "2026-11-26" });
    expect(report.clinic.signed).toBe(5);
  });

  it("counts to the first signature: signing through the API sets it, an amendment and a new signature keep it", async () => {
    const worksheet = await insertWorksheet(t, clinic.clinicId);
    const generated = await call(clinic)({
      method: "POST",
      url: "/api/reports/generate",
      payload: { worksheetId: worksheet.id, physicianId: docPhysician, logoUrl: null },
    });
    expect(generated.statusCode, generated.body).toBe(201);
    const id = (generated.json() as Report).id;
    // The fixture's right ICA is a critical result: its call is recorded (issue 26), this test is about timing.
    await communicateCritical(t, doc, id);
    const first = Date.parse("2026-11-25T15:00:00Z");
    now = first;
    await reauth(t, doc);
    expect(
      (
        await call(doc)({
          method: "POST",
          url: `/api/reports/${id}/finalize`,
          payload: { acknowledgeDateWarnings: true },
        })
      ).statusCode,
    ).toBe(200);
    const amended = await call(doc)({ method: "POST", url: `/api/reports/${id}/amend`, payload: { reason: "Typo" } });
    expect(amended.statusCode, amended.body).toBe(200);
    now = Date.parse("2026-11-26T11:00:00Z");
    await reauth(t, doc);
    expect(
      (
        await call(doc)({
          method: "POST",
          url: `/api/reports/${id}/finalize`,
          payload: { acknowledgeDateWarnings: true },
        })
      ).statusCode,
    ).toBe(200);
    now = Date.parse("2026-11-26T12:00:00Z");
    const [row] = await t.deps.database.db
      .select({ first: reports.firstFinalizedAt, last: reports.finalizedAt })
      .from(reports)
      .where(eq(reports.id, id));
    expect(row!.first!.getTime()).toBe(first);
    expect(row!.last!.getTime()).toBe(Date.parse("2026-11-26T11:00:00Z"));
    const wednesday = await turnaround(clinic, "from=2026-11-25&to=2026-11-25");
    expect(wednesday.clinic.signed).toBe(1);
  });
});
