import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../domain/contracts/common";
import { DOCX_FILE_NAME, PDF_FILE_NAME } from "../../../domain/exports/file-names";
import { clinicContext } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import { type ExportDeps, type ExportResult, exportReport } from "./exports.service";
import { exportFhirBundle, exportHl7Message } from "./interop.service";
import { PRINT_SCRIPT, PRINT_SCRIPT_PATH } from "./render-print-html";

const templateId = z.coerce.number().int().positive().max(2_147_483_647).optional();

const printQuery = z.object({
  templateId,
  /** `format=file` answers the real PDF file instead of the printable page (same as /pdf-file). */
  format: z.enum(["html", "file"]).optional(),
  filename: z.string().regex(PDF_FILE_NAME, "filename must look like name.pdf (letters, digits, _ . -)").optional(),
  /** `pdfa=true` gives the file as PDF/A-2b (archival). */
  pdfa: z.enum(["true", "false"]).optional(),
});
const pdfQuery = printQuery.omit({ format: true });
const docxQuery = z.object({
  templateId,
  filename: z.string().regex(DOCX_FILE_NAME, "filename must look like name.docx (letters, digits, _ . -)").optional(),
});

/** Exported documents hold patient data: never cached, never sniffed. */
function send(reply: FastifyReply, result: ExportResult) {
  reply
    .header("content-type", result.contentType)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff");
  if (result.fileName) reply.header("content-disposition", `attachment; filename="${result.fileName}"`);
  return reply.send(result.body);
}

/**
 * GET /api/reports/:id/pdf          the printable page (spec: opens in a new tab); ?format=file gives the PDF file
 * GET /api/reports/:id/pdf-file     the PDF file ("Download PDF")
 * GET /api/reports/:id/docx         the Word document
 * GET /api/reports/:id/fhir         FHIR R4 Bundle (collection): DiagnosticReport, Observations, Patient, Practitioner
 * GET /api/reports/:id/hl7          HL7 v2.5.1 ORU^R01 (segments end with CR)
 * Each file takes ?templateId= (a template of the clinic; default: the report's, then the clinic's default)
 * and the files take ?filename= in the safe shape. Every export is audited as report.exported.
 */
export const exportsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const exportDeps: ExportDeps = {
    db: deps.database.db,
    fileStore: deps.fileStore,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  };

  app.get("/api/reports/:id/pdf", { schema: { params: idParam, querystring: printQuery } }, async (request, reply) => {
    const ctx = clinicContext(request);
    const { templateId, format, filename, pdfa } = request.query;
    const result = await exportReport(exportDeps, ctx, {
      reportId: request.params.id,
      format: format === "file" ? "pdf" : "html",
      templateId,
      fileName: filename,
      pdfa: format === "file" && pdfa === "true",
    });
    return send(reply, result);
  });

  app.get(
    "/api/reports/:id/pdf-file",
    { schema: { params: idParam, querystring: pdfQuery } },
    async (request, reply) => {
      const ctx = clinicContext(request);
      const { templateId, filename, pdfa } = request.query;
      return send(
        reply,
        await exportReport(exportDeps, ctx, {
          reportId: request.params.id,
          format: "pdf",
          templateId,
          fileName: filename,
          pdfa: pdfa === "true",
        }),
      );
    },
  );

  app.get("/api/reports/:id/docx", { schema: { params: idParam, querystring: docxQuery } }, async (request, reply) => {
    const ctx = clinicContext(request);
    const { templateId, filename } = request.query;
    return send(
      reply,
      await exportReport(exportDeps, ctx, {
        reportId: request.params.id,
        format: "docx",
        templateId,
        fileName: filename,
      }),
    );
  });

  // FHIR R4 and HL7 v2.5.1 forms of the report (issue 28): for a record system, with the PDF inside.
  app.get("/api/reports/:id/fhir", { schema: { params: idParam } }, async (request, reply) => {
    const bundle = await exportFhirBundle(exportDeps, clinicContext(request), request.params.id);
    return send(reply, {
      contentType: "application/fhir+json; charset=utf-8",
      body: JSON.stringify(bundle),
      fileName: null,
    });
  });

  app.get("/api/reports/:id/hl7", { schema: { params: idParam } }, async (request, reply) => {
    const message = await exportHl7Message(exportDeps, clinicContext(request), request.params.id);
    return send(reply, { contentType: "x-application/hl7-v2+er7; charset=utf-8", body: message, fileName: null });
  });

  // The print page's button script: public, static, and the only script the page loads.
  app.get(PRINT_SCRIPT_PATH, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").header("cache-control", "public, max-age=3600").send(PRINT_SCRIPT),
  );
};
