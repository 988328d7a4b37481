import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import { legendRoutes } from "./legend.routes";
import { reportTemplatesRoutes } from "./report-templates.routes";
import { textShortcutsRoutes } from "./text-shortcuts.routes";
import { worksheetTemplatesRoutes } from "./worksheet-templates.routes";

/** The Templates area: report layouts, worksheet templates, the legend and text shortcuts. */
export const templatesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  // Before validation: a signed-out caller learns 401, not what a valid body would look like.
  app.addHook("preValidation", async (request) => {
    requireUser(request);
  });
  await app.register(reportTemplatesRoutes, deps);
  await app.register(worksheetTemplatesRoutes, deps);
  await app.register(legendRoutes, deps);
  await app.register(textShortcutsRoutes, deps);
};
