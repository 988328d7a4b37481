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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path segment that is a secret (an invitation token, 43 base64url characters) becomes "[token]"; ids stay. */
export function redactPath(url: string): string {
  return url
    .split("?")[0]!
    .split("/")
    .map((segment) =>
      segment.length >= 24 && /^[A-Za-z0-9_-]+$/.test(segment) && !UUID.test(segment) ? "[token]" : segment,
    )
    .join("/");
}

/**
 * Requests are logged without their query string (searches and download names carry patient names) and
 * without tokens in their path (an invitation link from the log would still open the invitation).
 */
const serializers = {
  req: (req: LoggedRequest) => ({ method: req.method, url: req.url && redactPath(req.url), id: req.id, ip: req.ip }),
};

export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino({ level, serializers, redact: { paths: redactedPaths, censor: "[redacted]" } }, destination);
}
