/**
 * Memory of OCR, all its processes together: runs the compiled OCR CLI (`dist/node/server/cli/ocr.js`, what
 * `npm run -s ocr` runs) on each FILE and samples, every 10 ms, the resident size of every process below it (the
 * loading and reading children) from /proc. Prints per file: the peak of their sum, each child's own peak
 * (VmHWM, its high-water mark as the kernel counts it), the CLI's own peak and its CPU seconds (user + system of the
 * whole tree, from the exit).
 *   npm run -s build:server && npx tsx bench/ocr-memory.ts FILE... [--runs N]
 * Linux only. Memory figures do not depend on the machine's load; times do, so none is printed.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const cli = path.join(root, "dist/node/server/cli/ocr.js");

const statusKb = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  try {
    const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
};

/** Every process below `pid`, depth first. */
function descendants(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const task of tasks) {
    let children = "";
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8");
    } catch {}
    for (const c of children.split(/\s+/).filter(Boolean).map(Number)) out.push(c, ...descendants(c));
  }
  return out;
}

type Run = { file: string; peakChildrenMb: number; childPeaksMb: number[]; cliPeakMb: number; cpuSeconds: number };

function measure(file: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `TIMEFORMAT='%U %S'; time node ${JSON.stringify(cli)} "$0" >/dev/null`, file], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const hwm = new Map<number, number>();
    let cliPid = 0;
    let peakChildren = 0;
    const timer = setInterval(() => {
      const tree = descendants(child.pid!);
      if (!cliPid && tree.length > 0) cliPid = tree[0]!;
      let sum = 0;
      for (const pid of tree) {
        const kb = statusKb(pid, "VmHWM");
        if (kb) hwm.set(pid, kb);
        if (pid !== cliPid) sum += statusKb(pid, "VmRSS");
      }
      peakChildren = Math.max(peakChildren, sum);
    }, 10);
    child.on("exit", (code) => {
      clearInterval(timer);
      const times = stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
      if (code !== 0) return reject(new Error(`ocr ${file} exited ${code}: ${stderr}`));
      const mb = (kb: number) => Math.round(kb / 1024);
      resolve({
        file: path.basename(file),
        peakChildrenMb: mb(peakChildren),
        childPeaksMb: [...hwm].filter(([pid]) => pid !== cliPid).map(([, kb]) => mb(kb)),
        cliPeakMb: mb(hwm.get(cliPid) ?? 0),
        cpuSeconds: Number(((times[0] ?? 0) + (times[1] ?? 0)).toFixed(2)),
      });
    });
  });
}

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 1;
for (let r = 0; r < runs; r++) {
  for (const file of args) console.log(JSON.stringify(await measure(file)));
}
