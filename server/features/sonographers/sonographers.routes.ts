import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParam } from "../../../domain/contracts/common";
import { sonographer, sonographerInput, sonographerList } from "../../../domain/contracts/sonographers";
import { clinicContext } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import { createSonographer, getSonographers, removeSonographer, replaceSonographer } from "./sonographers.service";

/** The clinic's sonographers (people who scan; not necessarily users of the app). */
export const sonographersRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;

  app.get("/api/sonographers", { schema: { response: { 200: sonographerList } } }, async (request) =>
    getSonographers(db, clinicContext(request)),
  );

  app.post(
    "/api/sonographers",
    { schema: { body: sonographerInput, response: { 201: sonographer } } },
    async (request, reply) => reply.status(201).send(await createSonographer(db, clinicContext(request), request.body)),
  );

  app.put(
    "/api/sonographers/:id",
    { schema: { params: idParam, body: sonographerInput, response: { 200: sonographer } } },
    async (request) => replaceSonographer(db, clinicContext(request), request.params.id, request.body),
  );

  app.delete("/api/sonographers/:id", { schema: { params: idParam } }, async (request, reply) => {
    await removeSonographer(db, clinicContext(request), request.params.id);
    return reply.status(204).send();
  });
};
