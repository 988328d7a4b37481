import { threadId } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../../domain/errors";
import { buildDocumentView, type DocumentView } from "../../../domain/exports/report-document";
import { resolveTemplateSettings } from "../../../domain/exports/template-settings";
import { reports } from "../../db/schema";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { sampleReportText } from "./export-samples";
import { RenderPool, renderPool } from "./render-pool";

/**
 * Exports are rendered by the render pool's worker threads, not on the web process's event loop (issue 27,
 * decision 025); the pool's queue is bounded and says so in words.
 */

const view: DocumentView = buildDocumentView(
  {
    report: {
      id: 7,
      ...sampleReportText,
      isFinalized: false,
      finalizedAt: null,
      isAmended: false,
      amendedAt: null,
      amendmentReason: null,
      generatedAt: new Date("2026-11-02T15:45:00Z"),
    },
    template: resolveTemplateSettings(null),
    clinic: { name: "Pool Clinic", address: null, phone: null, logo: null },
    physician: null,
    signedBy: null,
    amendedBy: null,
    patientId: null,
  },
  { timeZone: "UTC" },
);

const renderedCount = (pool: RenderPool) => [...pool.renderedBy.values()].reduce((a, b) => a + b, 0);

describe("export routes", () => {
  let t: TestApp;
  let admin: SignedIn;
  let reportId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerClinic(t.app, "Pool Clinic");
    const [row] = await t.deps.database.db
      .insert(reports)
      .values({ clinicId: admin.clinicId, ...sampleReportText })
      .returning({ id: reports.id });
    reportId = row!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("render PDF, PDF/A and DOCX in the pool's worker threads, never on the thread that serves requests", async () => {
    const before = renderedCount(renderPool());
    for (const url of [`/pdf-file`, `/pdf-file?pdfa=true`, `/docx`]) {
      const res = await as(t.app, admin)({ url: `/api/reports/${reportId}${url}` });
      expect(res.statusCode, url).toBe(200);
    }
    // Had a route rendered on its own thread, the pool would not have counted it.
    expect(renderedCount(renderPool()) - before).toBe(3);
    expect([...renderPool().renderedBy.keys()]).not.toContain(threadId);
  });
});

describe("the render pool", () => {
  const pool = new RenderPool({ threads: 1, maxWaiting: 1, timeoutMs: 60_000, idleExitMs: 60_000 });
  afterAll(() => pool.close());

  it("answers the same kind of file as the renderers, from another thread", async () => {
    const [pdf, docx] = await Promise.all([
      pool.render({ format: "pdf", view }),
      pool.render({ format: "docx", view }),
    ]);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(docx.subarray(0, 2).toString()).toBe("PK");
    expect([...pool.renderedBy.keys()]).not.toContain(threadId);
  });

  it("refuses a job with a 503 in words when its queue is full, and renders the ones it took", async () => {
    const running = pool.render({ format: "pdf", view });
    const waiting = pool.render({ format: "docx", view });
    const refused = await pool.render({ format: "pdf", view }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("UNAVAILABLE");
    expect((refused as AppError).message).toMatch(/busy rendering other documents.*try the export again/);
    expect((await running).subarray(0, 5).toString()).toBe("%PDF-");
    expect((await waiting).subarray(0, 2).toString()).toBe("PK");
  });

  it("reports a render that fails, and the next job still renders", async () => {
    const broken = { ...view, sections: null } as unknown as DocumentView;
    await expect(pool.render({ format: "pdf", view: broken })).rejects.toThrow(/Rendering the document failed/);
    expect((await pool.render({ format: "pdf", view })).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("refuses what runs or waits when closed, and starts a thread again when used after", async () => {
    const running = pool.render({ format: "pdf", view }).catch((error: unknown) => error);
    const waiting = pool.render({ format: "pdf", view }).catch((error: unknown) => error);
    await pool.close();
    expect(await running).toBeInstanceOf(AppError);
    expect(((await waiting) as AppError).message).toMatch(/shutting down/);
    expect((await pool.render({ format: "docx", view })).subarray(0, 2).toString()).toBe("PK");
  });
});
