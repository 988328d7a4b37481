import fs from "node:fs";
import path from "node:path";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../domain/errors";
import { adminRoutes } from "./features/admin/admin.routes";
import { authRoutes } from "./features/auth/auth.routes";
import { LocalDraftKeys } from "./features/auth/local-draft-key";
import { reauthRoutes } from "./features/auth/reauth.routes";
import { clinicRoutes } from "./features/clinic/clinic.routes";
import { deliveryRoutes } from "./features/delivery/delivery.routes";
import { drawingsRoutes } from "./features/drawings/drawings.routes";
import { exportsRoutes } from "./features/exports/exports.routes";
import { filesRoutes } from "./features/files/files.routes";
import { invitationsRoutes } from "./features/invitations/invitations.routes";
import { physiciansRoutes } from "./features/physicians/physicians.routes";
import { reportsRoutes } from "./features/reports/reports.routes";
import { signOffRoutes } from "./features/reports/sign-off.routes";
import { sonographersRoutes } from "./features/sonographers/sonographers.routes";
import { staffRoutes } from "./features/staff/staff.routes";
import { templatesRoutes } from "./features/templates/templates.routes";
import { trainingRoutes } from "./features/training/training.routes";
import { worksheetsRoutes } from "./features/worksheets/worksheets.routes";
import { registerJobHandlers } from "./jobs/handlers";
import { QUEUES } from "./jobs/queues";
import { authPlugin } from "./platform/auth-plugin";
import { type AppDeps, clockOf, MAX_BODY_BYTES, MAX_UPLOAD_BYTES } from "./platform/deps";
import { installErrorHandler } from "./platform/error-handler";
import { PgBossQueue } from "./platform/job-queue";
import { createLogger } from "./platform/logger";
import { createMailer } from "./platform/mailer";
import { bearerMatches, installNoStore } from "./platform/no-store";
import { RateCounters, rateLimitStore } from "./platform/rate-counters";
import { repoPath } from "./platform/repo-root";
import { RequestMetrics } from "./platform/request-metrics";
import { installSameOriginGuard } from "./platform/same-origin";
import { installSecurityHeaders } from "./platform/security-headers";

export type { AppDeps } from "./platform/deps";

const defaultWebRoot = repoPath("dist", "web");

export function defaultDeps(partial: Pick<AppDeps, "config" | "database" | "fileStore"> & Partial<AppDeps>): AppDeps {
  const logger = partial.logger ?? createLogger(partial.config.logLevel);
  const jobQueue =
    partial.jobQueue ??
    new PgBossQueue({
      database: partial.database,
      queues: QUEUES,
      work: partial.config.role !== "web",
      logger,
    });
  return {
    jobQueue,
    metrics: new RequestMetrics(),
    logger,
    mailer: createMailer(partial.config, logger),
    localDraftKeys: LocalDraftKeys.ephemeral(),
    webRoot: fs.existsSync(path.join(defaultWebRoot, "index.html")) ? defaultWebRoot : null,
    ...partial,
  };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Forwarded headers only from the configured proxy hops: anyone else could name any address.
    trustProxy: deps.config.trustedProxies.length > 0 ? deps.config.trustedProxies : false,
    bodyLimit: MAX_BODY_BYTES,
    genReqId: () => crypto.randomUUID(),
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  if (deps.onRoute) app.addHook("onRoute", deps.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  // Handlers are registered in every process; they run only where the queue works (not a web-only process).
  registerJobHandlers(deps);
  app.addHook("onClose", () => deps.jobQueue.stop());
  deps.metrics.install(app);

  await installSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", "data:"],
        mediaSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(cookie);
  // Counted in the database, so every web process behind a load balancer shares each limit (issue 27).
  await app.register(rateLimit, {
    global: false,
    store: rateLimitStore(new RateCounters(deps.database.db, clockOf(deps))),
  });
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 30, fieldSize: 2 * MAX_UPLOAD_BYTES },
  });
  installSameOriginGuard(app, deps.config.publicUrl);
  installNoStore(app);
  await app.register(authPlugin, {
    db: deps.database.db,
    config: deps.config,
    policy: deps.config.session,
    changes: deps.database.changes,
  });

  await app.register(authRoutes, deps);
  await app.register(reauthRoutes, deps);
  await app.register(filesRoutes, deps);
  await app.register(exportsRoutes, deps);
  await app.register(invitationsRoutes, deps);
  await app.register(staffRoutes, deps);
  await app.register(templatesRoutes, deps);
  await app.register(worksheetsRoutes, deps);
  await app.register(physiciansRoutes, deps);
  await app.register(sonographersRoutes, deps);
  await app.register(clinicRoutes, deps);
  await app.register(adminRoutes, deps);
  await app.register(drawingsRoutes, deps);
  await app.register(trainingRoutes, deps);
  await app.register(reportsRoutes, deps);
  await app.register(signOffRoutes, deps);
  await app.register(deliveryRoutes, deps);

  // Per-route counts and timings are for the operator: only with METRICS_TOKEN, and then only with it.
  const metricsToken = deps.config.metricsToken;
  app.get("/metrics", async (request, reply) => {
    if (!metricsToken) throw new AppError("NOT_FOUND", "Metrics are off: set METRICS_TOKEN to turn them on");
    if (!bearerMatches(request.headers.authorization, metricsToken)) {
      reply.header("www-authenticate", "Bearer");
      throw new AppError("UNAUTHORIZED", "Unauthorized");
    }
    return reply.type("text/plain; version=0.0.4").send(deps.metrics.prometheus());
  });

  await serveClient(app, deps.webRoot);
  return app;
}

async function serveClient(app: FastifyInstance, webRoot: string | null): Promise<void> {
  if (webRoot) {
    await app.register(fastifyStatic, { root: webRoot, wildcard: false, index: false });
  }
  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith("/api/") || request.url === "/api" || request.method !== "GET") {
      throw new AppError("NOT_FOUND", `No route ${request.method} ${request.url.split("?")[0]}`);
    }
    if (!webRoot) {
      return reply.status(503).type("text/plain").send("The web client is not built: run `npm run build`.");
    }
    // History fallback: the client's router decides what an unknown path shows (including its 404 page).
    return reply.type("text/html").header("cache-control", "no-cache").sendFile("index.html");
  });
}
