import http from "node:http";
import net from "node:net";
import type { Bundle, DiagnosticReport } from "@medplum/fhirtypes";
import { and, eq, inArray } from "drizzle-orm";
import { Message } from "node-hl7-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Destination, ReportDelivery } from "../../../domain/contracts/delivery";
import { auditEvents, deliveryDestinations, physicians, reportDeliveries, reports } from "../../db/schema";
import { fhirSchemaErrors } from "../../test-support/fhir-schema";
import { manualJobQueue } from "../../test-support/manual-job-queue";
import { addClinicMember, readyToSign } from "../../test-support/signing";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { sampleReportText } from "../exports/export-samples";
import { blockedAddressReason } from "./address-policy";
import { retryDelayMs } from "./delivery-worker";
import { postFhirTransaction, readAck, sendMllp } from "./senders";

/** A FHIR server on loopback that fails its first `failures` transactions with an OperationOutcome. */
function fhirReceiver(failures: number) {
  const received: { body: string; authorization?: string; url?: string }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        authorization: request.headers.authorization,
        url: request.url,
      });
      response.setHeader("content-type", "application/fhir+json");
      if (received.length <= failures) {
        response.statusCode = 503;
        response.end(
          JSON.stringify({
            resourceType: "OperationOutcome",
            issue: [{ severity: "error", code: "transient", diagnostics: "Database is busy" }],
          }),
        );
      } else {
        response.end(JSON.stringify({ resourceType: "Bundle", type: "transaction-response", entry: [] }));
      }
    });
  });
  return { server, received };
}

/** An MLLP listener on loopback that answers AE to its first `failures` messages, then AA. */
function mllpListener(failures: number) {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf(Buffer.from([0x1c, 0x0d]));
      if (end < 0) return;
      expect(buffer[0]).toBe(0x0b);
      const message = buffer.subarray(1, end).toString("utf8");
      buffer = buffer.subarray(end + 2);
      received.push(message);
      const control = new Message({ text: message }).get("MSH.10").toString();
      const code = received.length <= failures ? "AE" : "AA";
      const ack = `MSH|^~\\&|HIS|HOSP|SONOSCRIBE||20261124120000||ACK^R01^ACK|A${received.length}|P|2.5.1\rMSA|${code}|${control}|${code === "AE" ? "Interface paused" : ""}\r`;
      socket.write(Buffer.concat([Buffer.from([0x0b]), Buffer.from(ack), Buffer.from([0x1c, 0x0d])]));
    });
  });
  return { server, received };
}

const listen = (server: net.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)),
  );

let t: TestApp;
let admin: SignedIn;
let other: SignedIn;
const fhir = fhirReceiver(2);
const mllp = mllpListener(2);
let fhirDestination: Destination;
let mllpDestination: Destination;
let reportId = 0;

const { jobQueue, sent, run: runJob } = manualJobQueue();
/** One "deliveries" job, as the queue runs it (after a signature, or the minute's). */
const runDeliveriesJob = () => runJob("deliveries");

async function newReport() {
  const [physician] = await t.deps.database.db
    .insert(physicians)
    .values({ clinicId: admin.clinicId, name: "Dr. Maria Chen", title: "MD" })
    .returning();
  const [row] = await t.deps.database.db
    .insert(reports)
    .values({
      clinicId: admin.clinicId,
      physicianId: physician!.id,
      ...sampleReportText,
      mrn: "MRN-7",
      measurements: [{ site: "ICA_PROX", side: "left", parameter: "PSV", value: 262, unit: "cm/s" }],
    })
    .returning({ id: reports.id });
  return row!.id;
}

const deliveries = async (id = reportId) =>
  (await as(t.app, admin)({ url: `/api/reports/${id}/deliveries` })).json() as ReportDelivery[];

async function sign(id: number) {
  await readyToSign(t, admin, id);
  const res = await as(t.app, admin)({ method: "POST", url: `/api/reports/${id}/finalize`, payload: {} });
  expect(res.statusCode, res.body).toBe(200);
}

/** Runs the deliveries job until nothing is left to send (the retry waits are milliseconds here). */
async function drain(maxJobs = 40) {
  for (let i = 0; i < maxJobs; i++) {
    await runDeliveriesJob();
    const open = await t.deps.database.db
      .select({ id: reportDeliveries.id })
      .from(reportDeliveries)
      .where(
        and(eq(reportDeliveries.clinicId, admin.clinicId), inArray(reportDeliveries.status, ["pending", "sending"])),
      );
    if (open.length === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  t = await createTestApp(
    { DELIVERY_ALLOW_LOOPBACK: "true", DELIVERY_RETRY_SECONDS: "0.01", DELIVERY_MAX_ATTEMPTS: "4" },
    { jobQueue },
  );
  admin = await registerClinic(t.app, "Riverside Vascular");
  other = await registerClinic(t.app, "Other Clinic");
  const fhirPort = await listen(fhir.server);
  const mllpPort = await listen(mllp.server);
  const post = (payload: object) => as(t.app, admin)({ method: "POST", url: "/api/delivery-destinations", payload });
  const f = await post({
    kind: "fhir",
    name: "Regional HIE",
    url: `http://127.0.0.1:${fhirPort}/fhir`,
    token: "secret-token",
  });
  expect(f.statusCode, f.body).toBe(201);
  fhirDestination = f.json();
  const m = await post({ kind: "mllp", name: "Hospital RIS", host: "127.0.0.1", port: mllpPort });
  expect(m.statusCode, m.body).toBe(201);
  mllpDestination = m.json();
  reportId = await newReport();
});

afterAll(async () => {
  fhir.server.close();
  mllp.server.close();
  await t?.close();
});

describe("delivery destinations", () => {
  it("keeps the token secret: answers say only that one is set, and the stored value is encrypted", async () => {
    expect(fhirDestination).toMatchObject({ kind: "fhir", name: "Regional HIE", hasToken: true, enabled: true });
    expect(mllpDestination).toMatchObject({ kind: "mllp", host: "127.0.0.1", hasToken: false, url: null });
    expect(JSON.stringify(fhirDestination)).not.toContain("secret-token");
    const list = (await as(t.app, admin)({ url: "/api/delivery-destinations" })).json() as Destination[];
    expect(list.map((d) => d.name)).toEqual(["Hospital RIS", "Regional HIE"]);
    const rows = await t.deps.database.db.select().from(reportDeliveries);
    expect(rows).toHaveLength(0);
    const [stored] = await t.deps.database.db
      .select()
      .from(deliveryDestinations)
      .where(eq(deliveryDestinations.id, fhirDestination.id));
    expect(stored!.tokenEnc).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain("secret-token");
  });

  it("refuses addresses that are not http(s), carry a password, or a port out of range, in words", async () => {
    const post = (payload: object) => as(t.app, admin)({ method: "POST", url: "/api/delivery-destinations", payload });
    for (const url of ["ftp://his.example.org/fhir", "file:///etc/passwd", "javascript:alert(1)", "not a url"]) {
      const res = await post({ kind: "fhir", name: "X", url });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain("starting with https:// or http://");
    }
    const withPassword = await post({ kind: "fhir", name: "X", url: "https://user:pw@his.example.org/fhir" });
    expect(withPassword.json().error).toBe("Put the token in the token field, not in the address");
    const badPort = await post({ kind: "mllp", name: "X", host: "his.example.org", port: 70000 });
    expect(badPort.statusCode).toBe(400);
    expect(badPort.json().error).toContain("a number from 1 to 65535");
    const badHost = await post({ kind: "mllp", name: "X", host: "his example/org", port: 2575 });
    expect(badHost.json().error).toContain("host name or IP address");
  });

  it("is for admins only; another clinic's destination is a 404", async () => {
    const sonographer = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "Sam", lastName: "Sono" });
    expect((await as(t.app, sonographer)({ url: "/api/delivery-destinations" })).statusCode).toBe(403);
    const patch = await as(
      t.app,
      other,
    )({
      method: "PATCH",
      url: `/api/delivery-destinations/${fhirDestination.id}`,
      payload: { name: "Mine" },
    });
    expect(patch.statusCode).toBe(404);
  });
});

describe("sending signed reports", () => {
  it("queues one delivery per destination when the report is signed, and the report shows them", async () => {
    expect(await deliveries()).toEqual([]);
    sent.length = 0;
    await sign(reportId);
    // The first attempt need not wait for the minute's job: the signature queues one at once (and its archive copy).
    expect(sent.filter((queue) => queue === "deliveries")).toEqual(["deliveries"]);
    const list = await deliveries();
    expect(list.map((d) => [d.destinationName, d.status, d.reason])).toEqual(
      expect.arrayContaining([
        ["Regional HIE", "pending", "finalized"],
        ["Hospital RIS", "pending", "finalized"],
      ]),
    );
  });

  it("retries a receiver that fails twice with a growing wait, shows the last error, and delivers once", async () => {
    await runDeliveriesJob();
    const afterFirst = await deliveries();
    const fhirRow = afterFirst.find((d) => d.destinationKind === "fhir")!;
    expect(fhirRow).toMatchObject({ status: "pending", attempts: 1 });
    expect(fhirRow.lastError).toBe("The FHIR server answered 503: Database is busy");
    expect(afterFirst.find((d) => d.destinationKind === "mllp")!.lastError).toBe(
      "The HL7 listener refused the message (AE: Interface paused)",
    );
    await drain();
    const done = await deliveries();
    for (const d of done) expect(d).toMatchObject({ status: "delivered", attempts: 3, lastError: null });
    expect(fhir.received).toHaveLength(3);
    expect(mllp.received).toHaveLength(3);
    // Nothing more is sent once delivered.
    await runDeliveriesJob();
    expect(fhir.received).toHaveLength(3);
    expect(mllp.received).toHaveLength(3);
  });

  it("POSTs a valid transaction Bundle with the bearer token, and a parsable ORU^R01 over MLLP", async () => {
    const last = fhir.received.at(-1)!;
    expect(last.authorization).toBe("Bearer secret-token");
    expect(last.url).toBe("/fhir");
    const bundle = JSON.parse(last.body) as Bundle;
    expect(bundle.type).toBe("transaction");
    expect(fhirSchemaErrors(bundle)).toEqual([]);
    for (const e of bundle.entry ?? []) expect(fhirSchemaErrors(e.resource!)).toEqual([]);
    const report = bundle.entry!.find((e) => e.resource?.resourceType === "DiagnosticReport")!
      .resource as DiagnosticReport;
    expect(report.status).toBe("final");
    const message = new Message({ text: mllp.received.at(-1)! });
    expect(message.get("MSH.9.2").toString()).toBe("R01");
    expect(message.get("OBR.25").toString()).toBe("F");
    const audits = await t.deps.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "report.delivered"), eq(auditEvents.entityId, String(reportId))));
    expect(audits).toHaveLength(2);
  });

  it("lets an admin send again (a new delivery, history kept); others may not", async () => {
    const delivery = (await deliveries()).find((d) => d.destinationKind === "fhir")!;
    const sonographer = await addClinicMember(t, admin.clinicId, "sonographer", { firstName: "Sue", lastName: "Sono" });
    const url = `/api/reports/${reportId}/deliveries/${delivery.id}/resend`;
    expect((await as(t.app, sonographer)({ method: "POST", url })).statusCode).toBe(403);
    // Sonographers still see the deliveries of a report.
    expect((await as(t.app, sonographer)({ url: `/api/reports/${reportId}/deliveries` })).statusCode).toBe(200);
    sent.length = 0;
    const res = await as(t.app, admin)({ method: "POST", url });
    expect(res.statusCode, res.body).toBe(200);
    expect(sent).toEqual(["deliveries"]);
    expect(
      (res.json() as ReportDelivery[]).filter((d) => d.reason === "resend" && d.status === "pending"),
    ).toHaveLength(1);
    await drain();
    expect(fhir.received).toHaveLength(4);
    expect((await deliveries()).every((d) => d.status === "delivered")).toBe(true);
  });

  it("sends a signed amendment as amended; an amendment made before the job ran replaces the older delivery", async () => {
    const amend = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: `/api/reports/${reportId}/amend`,
      payload: { reason: "Corrected the side", impression: "Right ICA stenosis 50-69%." },
    });
    expect(amend.statusCode, amend.body).toBe(200);
    // An unsigned amendment is not sent, and cannot be resent.
    const first = (await deliveries())[0]!;
    const resend = await as(
      t.app,
      admin,
    )({ method: "POST", url: `/api/reports/${reportId}/deliveries/${first.id}/resend` });
    expect(resend.statusCode).toBe(409);
    await sign(reportId);
    const queued = (await deliveries()).filter((d) => d.status === "pending");
    expect(queued.map((d) => d.reason)).toEqual(["amended", "amended"]);
    await drain();
    const bundle = JSON.parse(fhir.received.at(-1)!.body) as Bundle;
    const report = bundle.entry!.find((e) => e.resource?.resourceType === "DiagnosticReport")!
      .resource as DiagnosticReport;
    expect(report.status).toBe("amended");
    expect(report.conclusion).toBe("Right ICA stenosis 50-69%.");
    expect(new Message({ text: mllp.received.at(-1)! }).get("OBR.25").toString()).toBe("C");

    // Signed, then amended again before the job ran: the older signed state is not sent.
    const count = fhir.received.length;
    const second = await newReport();
    await sign(second);
    await as(t.app, admin)({ method: "POST", url: `/api/reports/${second}/amend`, payload: { reason: "Typo" } });
    await drain();
    expect(fhir.received).toHaveLength(count);
    const rows = await deliveries(second);
    expect(rows.every((d) => d.status === "superseded")).toBe(true);
    expect(rows[0]!.lastError).toContain("amended after this signature");
  });

  it("gives up after the last attempt, says why, and audits the failure", async () => {
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise((r) => closed.close(r));
    const dead = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: "/api/delivery-destinations",
      payload: { kind: "mllp", name: "Retired RIS", host: "127.0.0.1", port },
    });
    const id = await newReport();
    await sign(id);
    await drain();
    const row = (await deliveries(id)).find((d) => d.destinationId === (dead.json() as Destination).id)!;
    expect(row).toMatchObject({ status: "failed", attempts: 4 });
    expect(row.lastError).toMatch(/^Could not reach the HL7 listener: .*ECONNREFUSED/);
    const audits = await t.deps.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "report.delivery_failed"), eq(auditEvents.entityId, String(id))));
    expect(audits).toHaveLength(1);
  });
});

describe("where deliveries may connect", () => {
  it("refuses link-local (cloud metadata), unspecified and multicast addresses always, loopback unless allowed", () => {
    expect(blockedAddressReason("169.254.169.254", true)).toContain("not one reports may be sent to");
    expect(blockedAddressReason("::ffff:169.254.169.254", true)).toContain("not one reports may be sent to");
    expect(blockedAddressReason("0.0.0.0", true)).not.toBeNull();
    expect(blockedAddressReason("fe80::1", true)).not.toBeNull();
    expect(blockedAddressReason("239.1.1.1", true)).not.toBeNull();
    expect(blockedAddressReason("127.0.0.1", false)).toContain("this server itself");
    expect(blockedAddressReason("::1", false)).toContain("this server itself");
    expect(blockedAddressReason("127.0.0.1", true)).toBeNull();
    expect(blockedAddressReason("10.20.30.40", false)).toBeNull();
    expect(blockedAddressReason("192.168.1.5", false)).toBeNull();
  });

  it("checks the address a name resolves to when connecting", async () => {
    await expect(
      postFhirTransaction("http://localhost:9/fhir", "{}", null, { allowLoopback: false, timeoutMs: 2000 }),
    ).rejects.toThrow(/this server itself/);
  });

  it("checks an address written as such too (no name to resolve)", async () => {
    const refused = { allowLoopback: false, timeoutMs: 2000 };
    await expect(postFhirTransaction("http://127.0.0.1:9/fhir", "{}", null, refused)).rejects.toThrow(
      "Could not reach the FHIR server: 127.0.0.1: the address 127.0.0.1 is this server itself",
    );
    await expect(postFhirTransaction("http://[::1]:9/fhir", "{}", null, refused)).rejects.toThrow(/this server itself/);
    await expect(
      postFhirTransaction("http://169.254.169.254/latest/meta-data", "{}", null, { ...refused, allowLoopback: true }),
    ).rejects.toThrow(/169\.254\.169\.254 is not one reports may be sent to/);
    await expect(sendMllp("127.0.0.1", 2575, "MSH|^~\\&|X\r", refused)).rejects.toThrow(
      "Could not reach the HL7 listener: 127.0.0.1: the address 127.0.0.1 is this server itself",
    );
    await expect(
      sendMllp("169.254.169.254", 2575, "MSH|^~\\&|X\r", { ...refused, allowLoopback: true }),
    ).rejects.toThrow(/not one reports may be sent to/);
  });

  it("reads MSA-1 and MSA-3 of an ACK", () => {
    expect(readAck("MSH|^~\\&|A\rMSA|AR|X1|Unknown patient\r")).toEqual({ code: "AR", text: "Unknown patient" });
    expect(readAck("MSH|^~\\&|A\r")).toBeNull();
  });

  it("waits twice as long after each failure, at most an hour", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(30_000, n))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(30_000, 20)).toBe(3_600_000);
  });
});
