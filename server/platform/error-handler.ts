import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { installValidationMessages } from "../../domain/contracts/validation-messages";
import { AppError, type ErrorBody, type ErrorCode, errorStatus } from "../../domain/errors";

const statusCodes = new Map<number, ErrorCode>(
  Object.entries(errorStatus)
    .reverse()
    .map(([code, status]) => [status, code as ErrorCode]),
);

/**
 * One error model: AppError(code, message) -> { error, code, requestId }. Client mistakes are told in a
 * sentence a clinician understands, with the bad field in `field`; anything unexpected is logged in full and answered with a generic 500, never a stack trace.
 */
export function installErrorHandler(app: FastifyInstance): void {
  installValidationMessages();
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const requestId = request.id;
    if (error instanceof AppError) {
      const body: ErrorBody = { error: error.message, code: error.code, requestId, field: error.field };
      return reply.status(errorStatus[error.code]).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, "").replaceAll("/", ".") || undefined;
      // The message is a sentence already: the contract's own words, else validation-messages.ts.
      const message = first?.message ?? "The request is not valid.";
      return reply
        .status(400)
        .send({ error: message, code: "VALIDATION_FAILED", requestId, field } satisfies ErrorBody);
    }
    if (isUnstorableText(error)) {
      const message = "Text must not contain NUL characters";
      return reply.status(400).send({ error: message, code: "BAD_REQUEST", requestId } satisfies ErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = statusCodes.get(status) ?? "BAD_REQUEST";
      return reply.status(status).send({ error: clientMessage(error), code, requestId } satisfies ErrorBody);
    }
    request.log.error({ err: error }, "request failed");
    return reply.status(500).send({ error: "Internal server error", code: "INTERNAL", requestId } satisfies ErrorBody);
  });
}

/**
 * PostgreSQL refuses a NUL character in text (SQLSTATE 22021) or an untranslatable one (22P05). Input can
 * carry them anywhere, so they are a client error here, once, rather than a check in every schema.
 */
function isUnstorableText(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code === "22021" || e.code === "22P05") return true;
    e = e.cause as typeof e;
  }
  return false;
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return "The request body is not valid JSON";
    case "FST_ERR_CTP_BODY_TOO_LARGE":
    case "FST_REQ_FILE_TOO_LARGE":
      return "The request is too large";
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return "Unsupported content type";
    default:
      return error.message;
  }
}
