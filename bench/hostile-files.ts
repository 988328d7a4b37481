import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hugeImagePdf, pngBomb } from "../server/test-support/hostile-files";
import { Client, registerAndSignIn, startServer } from "./real-server";

/**
 * Decompression bombs against the real server (issue 25 item 2): for each upload route that decodes a file, clinic A
 * sends a 0.9 MB file declaring 30000x30000 pixels while /api/health is polled and clinic B uploads an ordinary PDF
 * worksheet. Prints the answer, its latency, the server's and its children's resident memory (sampled from /proc
 * every 50 ms), the slowest health answer and B's upload time against B's time alone.
 *   npm run bench:hostile                 one run of each case
 *   npm run bench:hostile -- --repeats 3  medians of three
 */

const root = path.resolve(import.meta.dirname, "..");
const repeats = Number(process.argv[process.argv.indexOf("--repeats") + 1] || 1) || 1;
const ordinaryPdf = fs.readFileSync(path.join(root, "fixtures/worksheets/ws-clean-007.pdf"));

type Case = { name: string; url: string; field: string; file: () => Buffer; filename: string; type: string };
const cases: Case[] = [
  {
    name: "template PDF",
    url: "/api/worksheet-templates",
    field: "worksheetFile",
    file: () => hugeImagePdf(30_000, 30_000),
    filename: "bomb.pdf",
    type: "application/pdf",
  },
  {
    name: "worksheet PDF",
    url: "/api/worksheets/upload",
    field: "worksheet",
    file: () => hugeImagePdf(30_000, 30_000),
    filename: "bomb.pdf",
    type: "application/pdf",
  },
  {
    name: "worksheet PDF, image as soft mask",
    url: "/api/worksheets/upload",
    field: "worksheet",
    file: () => hugeImagePdf(30_000, 30_000, { softMask: true }),
    filename: "bomb.pdf",
    type: "application/pdf",
  },
  {
    name: "worksheet PNG",
    url: "/api/worksheets/upload",
    field: "worksheet",
    file: () => pngBomb(30_000, 30_000),
    filename: "bomb.png",
    type: "image/png",
  },
  {
    name: "template PNG",
    url: "/api/worksheet-templates",
    field: "worksheetFile",
    file: () => pngBomb(30_000, 30_000),
    filename: "bomb.png",
    type: "image/png",
  },
  {
    name: "logo PNG",
    url: "/api/upload-logo",
    field: "logo",
    file: () => pngBomb(30_000, 30_000),
    filename: "bomb.png",
    type: "image/png",
  },
  {
    name: "signature PNG",
    url: "/api/upload-signature",
    field: "signature",
    file: () => pngBomb(30_000, 30_000),
    filename: "bomb.png",
    type: "image/png",
  },
];

/** Resident memory of a process (MB) and the sum over its descendants, read from /proc. */
function memory(pid: number): { server: number; children: number } {
  const rss = (p: number) => {
    try {
      const kb = fs.readFileSync(`/proc/${p}/status`, "utf8").match(/^VmRSS:\s+(\d+)/m);
      return kb ? Number(kb[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const descendants = (p: number): number[] =>
    [...parents].filter(([, ppid]) => ppid === p).flatMap(([child]) => [child, ...descendants(child)]);
  return { server: rss(pid), children: descendants(pid).reduce((sum, p) => sum + rss(p), 0) };
}

function form(field: string, data: Buffer, filename: string, type: string, extra: Record<string, string> = {}) {
  const body = new FormData();
  for (const [k, v] of Object.entries(extra)) body.append(k, v);
  body.append(field, new Blob([new Uint8Array(data)], { type }), filename);
  return body;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-hostile-"));
  const server = await startServer({ DATA_DIR: dataDir, OCR_THREADS: "1" });
  const pid = server.child.pid!;
  try {
    const attacker = new Client(server.base);
    const victim = new Client(server.base);
    await registerAndSignIn(attacker, "Attacker Clinic");
    await registerAndSignIn(victim, "Victim Clinic");
    const victimUpload = () =>
      victim.call("POST", "/api/worksheets/upload", form("worksheet", ordinaryPdf, "sheet.pdf", "application/pdf"));
    const health = () => timed(() => fetch(`${server.base}/api/health`).then((r) => r.status));

    // Alone: the first upload starts the loading child (cold); the rest find it warm.
    const cold = await timed(victimUpload);
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) alone.push((await timed(victimUpload)).ms);
    const idleHealth: number[] = [];
    for (let i = 0; i < 5; i++) idleHealth.push((await health()).ms);
    const idle = memory(pid);
    console.log(
      `ordinary PDF worksheet alone: cold ${cold.ms.toFixed(0)} ms (${cold.value.status}), warm median ` +
        `${median(alone).toFixed(0)} ms; /api/health idle median ${median(idleHealth).toFixed(1)} ms; ` +
        `RSS server ${idle.server.toFixed(0)} MB, children ${idle.children.toFixed(0)} MB`,
    );

    const rows: string[] = [];
    for (const c of cases) {
      const runs: Array<Record<string, number | string>> = [];
      for (let r = 0; r < repeats; r++) {
        const before = memory(pid);
        let peakServer = before.server;
        let peakChildren = before.children;
        const sampler = setInterval(() => {
          const m = memory(pid);
          peakServer = Math.max(peakServer, m.server);
          peakChildren = Math.max(peakChildren, m.children);
        }, 50);
        let done = false;
        const healthTimes: number[] = [];
        const poller = (async () => {
          while (!done) {
            healthTimes.push((await health()).ms);
            await new Promise((res) => setTimeout(res, 100));
          }
        })();
        const extra = c.url === "/api/worksheet-templates" ? { name: "Bomb" } : undefined;
        const bomb = timed(() => attacker.call("POST", c.url, form(c.field, c.file(), c.filename, c.type, extra)));
        await new Promise((res) => setTimeout(res, 100));
        const other = await timed(victimUpload);
        const answer = await bomb;
        done = true;
        await poller;
        clearInterval(sampler);
        const after = memory(pid);
        const message = String((answer.value.json as { error?: string }).error ?? answer.value.json).slice(0, 70);
        runs.push({
          status: answer.value.status,
          ms: answer.ms,
          serverBefore: before.server,
          serverPeak: peakServer,
          serverAfter: after.server,
          childrenPeak: peakChildren,
          healthMax: Math.max(...healthTimes),
          other: other.ms,
          otherStatus: other.value.status,
          message,
        });
      }
      const m = (k: string) => median(runs.map((x) => Number(x[k])));
      const row =
        `| ${c.name} | ${runs[0]!.status} | ${m("ms").toFixed(0)} | ${m("serverBefore").toFixed(0)} / ` +
        `${m("serverPeak").toFixed(0)} / ${m("serverAfter").toFixed(0)} | ${m("childrenPeak").toFixed(0)} | ` +
        `${m("healthMax").toFixed(0)} | ${m("other").toFixed(0)} (${runs[0]!.otherStatus}) |`;
      rows.push(row);
      console.log(`${row} ${runs[0]!.message}`);
    }
    console.log(
      "\n| bomb (0.9 MB, 30000x30000) | answer | answer ms | server RSS MB before / peak / after | children peak MB | slowest /api/health ms | other clinic's PDF upload ms |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const row of rows) console.log(row);
  } finally {
    const exited = new Promise((r) => server.child.once("exit", r));
    server.child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    try {
      // The server's process group: whatever it still has running (an OCR child).
      process.kill(-pid, "SIGKILL");
    } catch {}
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
