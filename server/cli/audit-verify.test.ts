import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { recordAudit, setAuditKey } from "../platform/audit";
import { AuditAnchor } from "../platform/audit-anchor";
import { loadSecrets } from "../platform/secrets";
import { runAuditVerify } from "./audit-verify";

describe("npm run audit:verify", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-audit-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const run = async () => {
    const lines: string[] = [];
    const code = await runAuditVerify(config, (line) => lines.push(line));
    return { code, output: lines.join("\n") };
  };

  it("prints OK with the count for an intact chain, names the first changed row and exits non-zero", async () => {
    const { auditKey } = loadSecrets(dataDir, {});
    setAuditKey(auditKey);
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    for (let i = 0; i < 3; i++) {
      await database.db.transaction((tx) => recordAudit(tx, { action: "auth.sign_in", actorUserId: `u${i}` }));
    }
    await database.close();
    // Without the head anchor the server writes, removed newest events could not show.
    expect((await run()).output).toMatch(/^UNCHECKED: the 3 events verify, but there is no head anchor/);
    const anchored = await openDatabase({ dataDir, databaseUrl: undefined });
    await (await AuditAnchor.open(anchored.db, dataDir, auditKey, () => {})).close();
    await anchored.close();
    expect(await run()).toEqual({ code: 0, output: "OK: the audit chain is intact (3 events)." });

    const reopened = await openDatabase({ dataDir, databaseUrl: undefined });
    const ids = (
      (await reopened.db.execute(sql`select id from audit_events order by id`)) as unknown as {
        rows: Array<{ id: number }>;
      }
    ).rows.map((r) => Number(r.id));
    await reopened.db.execute(sql`delete from audit_events where id = ${ids[1]}`);
    await reopened.close();
    const broken = await run();
    expect(broken.code).toBe(1);
    expect(broken.output).toContain(`audit event ${ids[2]} does not verify: the row before it was changed or removed`);
  });

  it("refuses clearly while another opener holds the embedded database", async () => {
    const holder = await openDatabase({ dataDir, databaseUrl: undefined });
    try {
      const result = await run();
      expect(result.code).toBe(2);
      expect(result.output).toContain("stop the server, then run again");
    } finally {
      await holder.close();
    }
  });
});
