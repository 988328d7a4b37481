// A PDF through the compiled server, upload then OCR, timed and counted in CPU seconds (issue 30 item 1: render
// once), paired between checkouts.
//
//   npx tsx bench/pdf-pages.ts --file PDF [--checkout DIR]... [--runs N] [--warm FILE]
//
// Each run starts `node DIR/dist/node/server/main.js` (build it in DIR with `node scripts/build-server.mjs`) for
// every checkout in turn (the order alternates run by run), on a new data directory (embedded database),
// registers a clinic, reads the warm-up file once (default fixtures/worksheets/ws-clean-003.png: the models load,
// both OCR children start), then uploads the PDF and runs its OCR (POST .../ocr, answered when it is read). CPU
// seconds are those of the server's whole process group (the server and its OCR children; children that ended are
// counted through the server's cutime/cstime), read from /proc before and after each step. Wall times depend on
// the machine's load, which is printed with each line; CPU seconds much less.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, freePort, registerAndSignIn } from "./real-server";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const root = path.resolve(import.meta.dirname, "..");
const file = path.resolve(option("--file") ?? "");
const warm = path.resolve(option("--warm") ?? path.join(root, "fixtures/worksheets/ws-clean-003.png"));
const runs = Number(option("--runs") ?? 3);
const checkouts = args.flatMap((a, i) => (a === "--checkout" ? [path.resolve(args[i + 1]!)] : []));
if (checkouts.length === 0) checkouts.push(root);
const TICK = 100; // clock ticks a second (getconf CLK_TCK on Linux)

/** CPU seconds of the group led by `leader`: live members' own time, plus what the leader's ended children used. */
function groupCpuSeconds(leader: number): number {
  let ticks = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces), from field 3 on.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const pgrp = Number(fields[2]);
    if (pgrp !== leader) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
    if (Number(entry) === leader) ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks / TICK;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function start(checkout: string, dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(checkout, "dist/node/server/main.js")], {
    cwd: checkout,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      DATABASE_URL: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      OCR_REQUEST_WAIT_SECONDS: "600",
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error("the server exited");
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, base };
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the server did not answer");
}

async function measured<T>(leader: number, step: () => Promise<T>): Promise<{ value: T; s: number; cpu: number }> {
  const cpu0 = groupCpuSeconds(leader);
  const t0 = performance.now();
  const value = await step();
  return { value, s: (performance.now() - t0) / 1000, cpu: groupCpuSeconds(leader) - cpu0 };
}

async function uploadAndRead(client: Client, name: string, data: Buffer, type: string) {
  const form = new FormData();
  form.append("worksheet", new Blob([new Uint8Array(data)], { type }), name);
  const sheet = await client.must<{ id: number; pageCount: number }>("POST", "/api/worksheets/upload", form);
  return sheet;
}

console.log(`file ${file}, warm-up ${path.basename(warm)}, ${runs} runs; checkouts: ${checkouts.join(", ")}`);
console.log("run\tcheckout\tpages\tupload s\tupload CPU s\tOCR s\tOCR CPU s\tper page s\tper page CPU s\tload");
const pdf = fs.readFileSync(file);
for (let run = 1; run <= runs; run++) {
  const order = run % 2 === 1 ? checkouts : [...checkouts].reverse();
  for (const checkout of order) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pdf-pages-"));
    const server = await start(checkout, dataDir);
    const leader = server.child.pid!;
    try {
      const client = new Client(server.base);
      await registerAndSignIn(client, "PDF Bench Clinic");
      const warmSheet = await uploadAndRead(client, path.basename(warm), fs.readFileSync(warm), "image/png");
      await client.must("POST", `/api/worksheets/${warmSheet.id}/ocr`);
      const up = await measured(leader, () => uploadAndRead(client, "pages.pdf", pdf, "application/pdf"));
      const ocr = await measured(leader, () => client.must("POST", `/api/worksheets/${up.value.id}/ocr`));
      const pages = up.value.pageCount;
      const f = (n: number) => n.toFixed(2);
      console.log(
        [
          run,
          path.basename(checkout),
          pages,
          f(up.s),
          f(up.cpu),
          f(ocr.s),
          f(ocr.cpu),
          f((up.s + ocr.s) / pages),
          f((up.cpu + ocr.cpu) / pages),
          load(),
        ].join("\t"),
      );
    } finally {
      process.kill(-leader, "SIGTERM");
      await new Promise((r) => setTimeout(r, 1500));
      try {
        process.kill(-leader, "SIGKILL");
      } catch {}
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
