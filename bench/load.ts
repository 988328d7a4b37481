import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CallTimer, Client, registerAndSignIn, startServer } from "./real-server";

/**
 * N simulated users on the real server (127.0.0.1) running the daily mix as each clinic's physician (an account
 * linked to the physician, made through the physician's invitation): sign in, list, search, open, generate (from a
 * stored OCR result), edit, record the communication of the report's critical result, sign (re-authenticating first
 * when the last re-authentication is 5 minutes old, as the client does), export. Prints errors and p50/p95/p99 per call.
 *   npm run bench:load                                     20 users for 60 s
 *   npm run bench:load -- --users 200 --seconds 600        the full run
 * Options: --clinics K (users are spread over K clinics, default 3), --think MS (mean pause between calls,
 * default 500), DATABASE_URL to run against PostgreSQL instead of the embedded database.
 */

const option = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const users = option("users", 20);
const seconds = option("seconds", 60);
const clinicCount = Math.min(option("clinics", 3), 9); // registration allows 10 an hour from one address
const thinkMs = option("think", 500);

const worksheetPng = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/worksheets/ws-clean-000.png"));
/** A clinic of the run: its physician's account (linked to the physician it signs as) does the daily work. */
type Clinic = { email: string; password: string; worksheetId: number; physicianId: number; searchTerm: string };

const calls = new CallTimer();
const { samples, errors, errorExamples } = calls;
const timed = calls.timed.bind(calls);

const pause = () => new Promise((r) => setTimeout(r, Math.random() * 2 * thinkMs));

/**
 * Signs the report as the web client does: the signature needs a re-authentication of the session within the last
 * 5 minutes (issue 26), so the client, knowing until when its last one holds, asks for the password again first
 * when it has none or it is about to run out. A 428 reauth_required from finalize is then an error.
 */
async function sign(client: Client, clinic: Clinic, reportId: number, session: { reauthUntil: number }) {
  if (session.reauthUntil - Date.now() < 30_000) {
    const status = await timed<{ reauthenticatedUntil: string | null }>("re-authenticate", () =>
      client.call("POST", "/api/auth/reauth", { password: clinic.password }),
    );
    session.reauthUntil = status?.reauthenticatedUntil ? Date.parse(status.reauthenticatedUntil) : 0;
    await pause();
  }
  await timed("finalize", () => client.call("POST", `/api/reports/${reportId}/finalize`, {}));
}

async function simulatedUser(base: string, clinic: Clinic, until: number, address: string): Promise<void> {
  const client = new Client(base, address);
  const session = { reauthUntil: 0 };
  let iteration = 0;
  while (Date.now() < until) {
    // A working day signs in now and then, not before every report.
    if (iteration++ % 10 === 0) {
      client.cookie = "";
      session.reauthUntil = 0;
      await timed("sign in", () =>
        client.call("POST", "/api/auth/login", { email: clinic.email, password: clinic.password }),
      );
      await pause();
    }
    const list = await timed<{ items: Array<{ id: number }> }>("list", () => client.call("GET", "/api/reports"));
    await pause();
    await timed("search", () => client.call("GET", `/api/reports?search=${encodeURIComponent(clinic.searchTerm)}`));
    await pause();
    const previous = list?.items[Math.floor(Math.random() * list.items.length)];
    if (previous) await timed("open", () => client.call("GET", `/api/reports/${previous.id}`));
    await pause();
    const report = await timed<{ id: number; criticalUncommunicated: boolean }>("generate", () =>
      client.call("POST", "/api/reports/generate", {
        worksheetId: clinic.worksheetId,
        physicianId: clinic.physicianId,
      }),
    );
    await pause();
    if (!report) continue;
    await timed("edit", () =>
      client.call("PATCH", `/api/reports/${report.id}`, { impression: `Reviewed at ${new Date().toISOString()}.` }),
    );
    await pause();
    // The fixture's right ICA of 250 cm/s is a critical result: its communication is recorded before signing.
    if (report.criticalUncommunicated) {
      await timed("record critical communication", () =>
        client.call("POST", `/api/reports/${report.id}/critical-communication`, {
          recipient: "Dr Referrer",
          method: "phone",
          communicatedAt: new Date(Date.now() - 60_000).toISOString(),
          readBack: true,
        }),
      );
      await pause();
    }
    await sign(client, clinic, report.id, session);
    await pause();
    const kind = iteration % 2 === 0 ? "pdf-file" : "docx";
    await timed(`export ${kind}`, () => client.call("GET", `/api/reports/${report.id}/${kind}`));
    await pause();
  }
}

/**
 * A clinic registered by its admin, who adds the physician and invites them from the physician's card; the
 * physician registers through the invitation, which links the account to the physician it signs as.
 */
async function setUpClinic(base: string, index: number): Promise<Clinic> {
  const admin = new Client(base);
  await registerAndSignIn(admin, `Load Clinic ${index + 1}`);
  const physician = await admin.must("POST", "/api/physicians", { name: "Dr. Load" });
  const email = `dr-load-${index + 1}-${Date.now().toString(36)}@clinic.test`;
  const password = "correct horse battery staple";
  const invitation = await admin.must<{ invitationUrl: string }>("POST", "/api/invitations", {
    email,
    role: "physician",
    physicianId: physician.id,
  });
  const token = invitation.invitationUrl.split("/invite/")[1]!;
  await new Client(base).must("POST", `/api/invitations/${token}/register`, {
    firstName: "Lou",
    lastName: "Load",
    password,
  });
  const form = new FormData();
  form.append("worksheet", new Blob([worksheetPng], { type: "image/png" }), "ws-clean-000.png");
  // The staff (here the admin) upload and read the worksheet; the physician's role may not.
  const worksheet = await admin.must("POST", "/api/worksheets/upload", form);
  // The stored OCR result is what every generation in the run starts from.
  const ocr = await admin.must<{ ocrResult: { patientName: string } }>("POST", `/api/worksheets/${worksheet.id}/ocr`);
  const searchTerm = ocr.ocrResult.patientName.split(/[\s,]+/)[0]!.slice(0, 6);
  return { email, password, worksheetId: worksheet.id, physicianId: physician.id, searchTerm };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-load-"));
  const server = await startServer({
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.DATABASE_URL ?? "",
    // The users' own addresses come as X-Forwarded-For from the bench on 127.0.0.1 (see Client).
    TRUSTED_PROXIES: "127.0.0.1",
  });
  try {
    const clinics: Clinic[] = [];
    for (let i = 0; i < clinicCount; i++) clinics.push(await setUpClinic(server.base, i));
    const started = Date.now();
    const until = started + seconds * 1000;
    // Users arrive over the first tenth of the run rather than all in the same millisecond.
    await Promise.all(
      Array.from({ length: users }, async (_, i) => {
        await new Promise((r) => setTimeout(r, (i / users) * seconds * 100));
        // Each user at an address of their own (10.0.x.y), sent through the trusted local hop.
        await simulatedUser(
          server.base,
          clinics[i % clinics.length]!,
          until,
          `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`,
        );
      }),
    );
    const elapsed = (Date.now() - started) / 1000;
    const total = [...samples.values()].reduce((sum, s) => sum + s.length, 0);
    const failed = [...errors.values()].reduce((sum, n) => sum + n, 0);
    const database = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";
    const lines = [
      `${users} users, ${clinicCount} clinics, ${seconds} s, think ${thinkMs} ms, ${database}, node ${process.version}, ${os.cpus().length} cores`,
      `${total} calls in ${elapsed.toFixed(0)} s (${(total / elapsed).toFixed(1)}/s), ${failed} errors`,
      "",
      "| call | count | errors | p50 ms | p95 ms | p99 ms | max ms |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ];
    for (const [name, values] of samples) {
      const sorted = [...values].sort((a, b) => a - b);
      const ms = (p: number) => percentile(sorted, p).toFixed(0);
      lines.push(
        `| ${name} | ${values.length} | ${errors.get(name) ?? 0} | ${ms(0.5)} | ${ms(0.95)} | ${ms(0.99)} | ${sorted.at(-1)!.toFixed(0)} |`,
      );
    }
    process.stdout.write(`${lines.join("\n")}\n`);
    if (errorExamples.length > 0) process.stdout.write(`\nfirst errors:\n  ${errorExamples.join("\n  ")}\n`);
    process.exitCode = failed === 0 ? 0 : 1;
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
