import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../domain/contracts/common";
import {
  destination,
  destinationCreate,
  destinationList,
  destinationUpdate,
  reportDeliveryList,
} from "../../../domain/contracts/delivery";
import { clinicContext } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import {
  createDestination,
  deleteDestination,
  listDestinations,
  listReportDeliveries,
  resendDelivery,
  sendDeliveriesNow,
  updateDestination,
} from "./delivery.service";

const resendParams = idParam.extend({ deliveryId: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * Where a clinic's signed reports go (admins) and what became of each report's deliveries (issue 28).
 * GET/POST /api/delivery-destinations, PATCH/DELETE /api/delivery-destinations/:id,
 * GET /api/reports/:id/deliveries, POST /api/reports/:id/deliveries/:deliveryId/resend.
 */
export const deliveryRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;
  const store = deps.fileStore;

  app.get("/api/delivery-destinations", { schema: { response: { 200: destinationList } } }, async (request) =>
    listDestinations(db, clinicContext(request)),
  );

  app.post(
    "/api/delivery-destinations",
    { schema: { body: destinationCreate, response: { 201: destination } } },
    async (request, reply) =>
      reply.status(201).send(await createDestination(db, store, clinicContext(request), request.body)),
  );

  app.patch(
    "/api/delivery-destinations/:id",
    { schema: { params: idParam, body: destinationUpdate, response: { 200: destination } } },
    async (request) => updateDestination(db, store, clinicContext(request), request.params.id, request.body),
  );

  app.delete("/api/delivery-destinations/:id", { schema: { params: idParam } }, async (request, reply) => {
    await deleteDestination(db, clinicContext(request), request.params.id);
    return reply.status(204).send();
  });

  app.get(
    "/api/reports/:id/deliveries",
    { schema: { params: idParam, response: { 200: reportDeliveryList } } },
    async (request) => listReportDeliveries(db, clinicContext(request), request.params.id),
  );

  app.post(
    "/api/reports/:id/deliveries/:deliveryId/resend",
    { schema: { params: resendParams, response: { 200: reportDeliveryList } } },
    async (request) => {
      const ctx = clinicContext(request);
      const list = await resendDelivery(db, ctx, request.params.id, request.params.deliveryId);
      await sendDeliveriesNow({ db, jobs: deps.jobQueue, logger: request.log }, ctx, request.params.id);
      return list;
    },
  );
};
