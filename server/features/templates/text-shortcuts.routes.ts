import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../domain/contracts/common";
import { shortcutUsage, textShortcut, textShortcutRequest } from "../../../domain/contracts/templates";
import { clinicContext } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import { createShortcut, deleteShortcut, listShortcuts, updateShortcut, useShortcut } from "./text-shortcuts.service";

export const textShortcutsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;

  app.get("/api/text-shortcuts", { schema: { response: { 200: z.array(textShortcut) } } }, async (request) =>
    listShortcuts(db, clinicContext(request)),
  );

  app.post(
    "/api/text-shortcuts",
    { schema: { body: textShortcutRequest, response: { 201: textShortcut } } },
    async (request, reply) => reply.status(201).send(await createShortcut(db, clinicContext(request), request.body)),
  );

  app.put(
    "/api/text-shortcuts/:id",
    { schema: { params: idParam, body: textShortcutRequest, response: { 200: textShortcut } } },
    async (request) => updateShortcut(db, clinicContext(request), request.params.id, request.body),
  );

  app.delete("/api/text-shortcuts/:id", { schema: { params: idParam } }, async (request, reply) => {
    await deleteShortcut(db, clinicContext(request), request.params.id);
    return reply.status(204).send();
  });

  app.post(
    "/api/text-shortcuts/:id/use",
    { schema: { params: idParam, response: { 200: shortcutUsage } } },
    async (request) => useShortcut(db, clinicContext(request), request.params.id),
  );
};
