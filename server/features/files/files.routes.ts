import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParam } from "../../../domain/contracts/common";
import { notFound } from "../../../domain/errors";
import { clinicContext } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import { sendPrivateFile } from "../../platform/send-file";
import { readClinicFile } from "./files.service";

/** Logos, signatures and other clinic files are served only here, only to their own clinic. */
export const filesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get("/api/files/:id", { schema: { params: idParam } }, async (request, reply) => {
    const ctx = clinicContext(request);
    const file = await readClinicFile(deps.database.db, deps.fileStore, ctx.clinicId, request.params.id);
    if (!file) throw notFound("File");
    return sendPrivateFile(reply, file.data, file.row.mimeType);
  });
};
