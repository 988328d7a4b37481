import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { clinicInfo, clinicRecord, clinicUpdate, uploadedFile } from "../../../domain/contracts/clinic";
import { idParam } from "../../../domain/contracts/common";
import { clinicContext } from "../../platform/context";
import { type AppDeps, MAX_UPLOAD_BYTES } from "../../platform/deps";
import { readImageUpload } from "../../platform/uploads";
import { getClinic, getClinicInfo, updateClinicInfo, uploadLogo } from "./clinic.service";

/** The clinic's own record, its report header and its logo. */
export const clinicRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;

  app.get("/api/clinic", { schema: { response: { 200: clinicRecord } } }, async (request) =>
    getClinic(db, clinicContext(request)),
  );

  app.get("/api/clinic/info", { schema: { response: { 200: clinicInfo } } }, async (request) =>
    getClinicInfo(db, clinicContext(request)),
  );

  app.put(
    "/api/clinic/:id",
    { schema: { params: idParam, body: clinicUpdate, response: { 200: clinicRecord } } },
    async (request) => updateClinicInfo(db, clinicContext(request), request.params.id, request.body),
  );

  app.post(
    "/api/upload-logo",
    { schema: { response: { 201: uploadedFile } }, config: { rateLimit: { max: 30, timeWindow: "1 minute" } } },
    async (request, reply) => {
      const result = await uploadLogo({ db, fileStore: deps.fileStore }, clinicContext(request), () =>
        readImageUpload(request, "logo", MAX_UPLOAD_BYTES),
      );
      return reply.status(201).send(result);
    },
  );
};
