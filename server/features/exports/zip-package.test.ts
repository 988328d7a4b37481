import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { zipPackage } from "./zip-package";

/** The DOCX package zipped by Node's zlib (issue 27): a zip file that Info-ZIP reads back part for part. */

const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "zip-package-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("zipPackage", () => {
  it("writes every part in order, compressed, with its CRC and size, and Info-ZIP reads each back unchanged", async () => {
    const binary = new Uint8Array(70_000).map((_, i) => (i * 7919) % 251);
    const parts: [string, string | Uint8Array][] = [
      ["[Content_Types].xml", '<?xml version="1.0"?><Types/>'],
      ["word/document.xml", `<w:document>${"Margaret O'Neil, Zoë Ångström. ".repeat(400)}</w:document>`],
      ["word/media/image1.png", binary],
    ];
    const file = path.join(work, "package.zip");
    const zipped = zipPackage(parts);
    fs.writeFileSync(file, zipped);
    // Compressed: the repeated text takes far less than its size.
    expect(zipped.length).toBeLessThan(binary.length + 5_000);
    expect((await run("unzip", ["-t", file])).stdout).toContain("No errors detected");
    const listed = (await run("unzip", ["-Z1", file])).stdout.trim().split("\n");
    expect(listed).toEqual(parts.map(([name]) => name));
    const out = path.join(work, "out");
    await run("unzip", ["-q", file, "-d", out]);
    for (const [name, content] of parts) {
      const back = fs.readFileSync(path.join(out, name));
      expect(back.equals(typeof content === "string" ? Buffer.from(content) : Buffer.from(content))).toBe(true);
    }
  });
});
