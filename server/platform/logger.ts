import pino from "pino";

/** Patient identifiers never reach the logs, wherever they appear in a logged object. */
export const redactedPaths = [
  "req.headers.cookie",
  "req.headers.authorization",
  'res.headers["set-cookie"]',
  "*.patientName",
  "*.patientDob",
  "*.password",
  "*.totpCode",
  "*.*.patientName",
  "*.*.patientDob",
];

type LoggedRequest = { method?: string; url?: string; id?: string; ip?: string };

/**
 * Requests are logged without their query string: searches (`?search=`) and download names carry
 * patient names, and a path never does (ids only).
 */
const serializers = {
  req: (req: LoggedRequest) => ({ method: req.method, url: req.url?.split("?")[0], id: req.id, ip: req.ip }),
};

export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino({ level, serializers, redact: { paths: redactedPaths, censor: "[redacted]" } }, destination);
}
