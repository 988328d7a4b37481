import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uploadedFile } from "../../../domain/contracts/clinic";
import { idParam } from "../../../domain/contracts/common";
import { physician, physicianCreate, physicianList, physicianUpdate } from "../../../domain/contracts/physicians";
import { clinicContext } from "../../platform/context";
import { type AppDeps, MAX_UPLOAD_BYTES } from "../../platform/deps";
import { readImageUpload } from "../../platform/uploads";
import {
  changePhysician,
  createPhysician,
  getPhysicians,
  removePhysician,
  uploadSignature,
} from "./physicians.service";

/** The clinic's reporting physicians and their signatures. */
export const physiciansRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;

  app.get("/api/physicians", { schema: { response: { 200: physicianList } } }, async (request) =>
    getPhysicians(db, clinicContext(request)),
  );

  app.post(
    "/api/physicians",
    { schema: { body: physicianCreate, response: { 201: physician } } },
    async (request, reply) => reply.status(201).send(await createPhysician(db, clinicContext(request), request.body)),
  );

  app.patch(
    "/api/physicians/:id",
    { schema: { params: idParam, body: physicianUpdate, response: { 200: physician } } },
    async (request) => changePhysician(db, clinicContext(request), request.params.id, request.body),
  );

  app.delete("/api/physicians/:id", { schema: { params: idParam } }, async (request, reply) => {
    await removePhysician(db, clinicContext(request), request.params.id);
    return reply.status(204).send();
  });

  app.post(
    "/api/upload-signature",
    { schema: { response: { 201: uploadedFile } }, config: { rateLimit: { max: 30, timeWindow: "1 minute" } } },
    async (request, reply) => {
      const result = await uploadSignature({ db, fileStore: deps.fileStore }, clinicContext(request), () =>
        readImageUpload(request, "signature", MAX_UPLOAD_BYTES),
      );
      return reply.status(201).send(result);
    },
  );
};
