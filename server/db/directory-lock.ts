import fs from "node:fs";
import path from "node:path";

export class DirectoryLockedError extends Error {}

/**
 * PGlite has one writer per directory: a second process on the same directory seems to work and
 * silently loses committed rows. A lock file with our pid refuses the second opener; a lock left
 * by a process that no longer runs is taken over.
 */
export function acquireDirectoryLock(dir: string): () => void {
  const lockFile = path.join(dir, "sonoscribe.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      return () => {
        if (readPid(lockFile) === process.pid) fs.rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readPid(lockFile);
      if (holder !== null && holder !== process.pid && isRunning(holder)) {
        throw new DirectoryLockedError(
          `The data directory ${dir} is in use by another Sonoscribe process (pid ${holder}). Stop it first, or use another DATA_DIR.`,
        );
      }
      if (holder === process.pid) {
        throw new DirectoryLockedError(`The data directory ${dir} is already open in this process.`);
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new DirectoryLockedError(`Could not lock the data directory ${dir}.`);
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, "utf8"), 10);
    return Number.isFinite(pid) ? pid : null;
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
