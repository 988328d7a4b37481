import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../domain/contracts/common";
import { legendEntry } from "../../../domain/contracts/templates";
import { clinicContext } from "../../platform/context";
import { type AppDeps, MAX_UPLOAD_BYTES } from "../../platform/deps";
import { IMAGE_TYPES, readMultipart } from "../../platform/uploads";
import {
  createLegendEntry,
  deleteLegendEntryFor,
  type LegendEntryRow,
  listLegend,
  updateLegendEntryFor,
} from "./legend.service";

// varchar columns hold only the contract's choices (the service writes nothing else).
const out = (row: LegendEntryRow) => row as z.output<typeof legendEntry>;
const legendUpload = {
  files: { exampleImage: { types: IMAGE_TYPES, required: false } },
  maxBytes: MAX_UPLOAD_BYTES,
};

export const legendRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;

  app.get("/api/legend-entries", { schema: { response: { 200: z.array(legendEntry) } } }, async (request) =>
    (await listLegend(db, clinicContext(request))).map(out),
  );

  app.post("/api/legend-entries", { schema: { response: { 201: legendEntry } } }, async (request, reply) => {
    const ctx = clinicContext(request);
    const form = await readMultipart(request, legendUpload);
    return reply.status(201).send(out(await createLegendEntry(db, deps.fileStore, ctx, form)));
  });

  app.patch(
    "/api/legend-entries/:id",
    { schema: { params: idParam, response: { 200: legendEntry } } },
    async (request) => {
      const ctx = clinicContext(request);
      const form = await readMultipart(request, legendUpload);
      return out(await updateLegendEntryFor(db, deps.fileStore, ctx, request.params.id, form));
    },
  );

  app.delete("/api/legend-entries/:id", { schema: { params: idParam } }, async (request, reply) => {
    await deleteLegendEntryFor(db, clinicContext(request), request.params.id);
    return reply.status(204).send();
  });
};
