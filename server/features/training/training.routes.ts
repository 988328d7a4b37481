import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { trainingPair } from "../../../domain/contracts/admin";
import { type AppDeps, MAX_UPLOAD_BYTES } from "../../platform/deps";
import { requirePlatformAdmin } from "../../platform/platform-admin";
import { IMAGE_TYPES, readMultipart } from "../../platform/uploads";
import { addTrainingPair, trainingHistory } from "./training.service";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
/** Old Word .doc files are OLE compound documents. */
const DOC = "application/x-cfb";

export const trainingRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get("/api/training", { schema: { response: { 200: z.array(trainingPair) } } }, async (request) => {
    requirePlatformAdmin(request);
    return trainingHistory(deps.database.db);
  });

  app.post("/api/training", { schema: { response: { 201: trainingPair } } }, async (request, reply) => {
    const admin = requirePlatformAdmin(request);
    const form = await readMultipart(request, {
      maxBytes: MAX_UPLOAD_BYTES,
      files: {
        worksheet: { types: [...IMAGE_TYPES, "application/pdf"], required: false },
        report: { types: ["application/pdf", DOCX, DOC, ...IMAGE_TYPES], required: false },
      },
    });
    return reply.status(201).send(await addTrainingPair(deps, admin, form));
  });
};
