import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { clinicStat, costProjection, systemStats } from "../../../domain/contracts/admin";
import type { AppDeps } from "../../platform/deps";
import { requirePlatformAdmin } from "../../platform/platform-admin";
import { clinicStatistics, costProjection as projectCosts, systemStatistics } from "./admin.service";

/** The webmaster panel: platform admins only (with two-factor sign-in), enforced here, not in the UI. */
export const adminRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get("/api/admin/system-stats", { schema: { response: { 200: systemStats } } }, async (request) => {
    requirePlatformAdmin(request);
    return systemStatistics(deps);
  });

  app.get("/api/admin/clinic-stats", { schema: { response: { 200: z.array(clinicStat) } } }, async (request) => {
    requirePlatformAdmin(request);
    return clinicStatistics(deps);
  });

  app.get("/api/admin/cost-projection", { schema: { response: { 200: costProjection } } }, async (request) => {
    requirePlatformAdmin(request);
    return projectCosts(deps);
  });
};
