import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config";

export type Mail = { to: string; subject: string; text: string };

/** "email" when SMTP_URL is set; "outbox" when messages wait in DATA_DIR/outbox for the operator (decision 018). */
export type MailDelivery = "email" | "outbox";

export type Mailer = {
  delivery: MailDelivery;
  /** Sends the message, or files it in the outbox (also when SMTP fails): a message is never lost. */
  send(mail: Mail): Promise<void>;
};

export const outboxDir = (dataDir: string) => path.join(dataDir, "outbox");

/** One message per file, readable only by the server's user: the links in it are credentials. */
async function fileInOutbox(dir: string, mail: Mail): Promise<string> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.txt`;
  const file = path.join(dir, name);
  await fs.writeFile(file, `To: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`, { mode: 0o600 });
  return file;
}

export function createMailer(config: Config, logger: Logger): Mailer {
  const dir = outboxDir(config.dataDir);
  const toOutbox = async (mail: Mail) => {
    const file = await fileInOutbox(dir, mail);
    // The path, never the message: the log may travel further than this machine's disk.
    logger.warn(
      { file, to: mail.to },
      "e-mail not sent (no SMTP_URL or delivery failed): the message is in the outbox",
    );
  };
  if (!config.smtp) return { delivery: "outbox", send: toOutbox };
  const smtp = config.smtp;
  return {
    delivery: "email",
    async send(mail) {
      try {
        // Loaded when a mail is sent, not at start (idle memory, issue 30).
        const { default: nodemailer } = await import("nodemailer");
        await nodemailer.createTransport(smtp.url).sendMail({ from: smtp.from, ...mail });
      } catch (error) {
        logger.warn({ err: error instanceof Error ? error.message : String(error) }, "e-mail not sent");
        await toOutbox(mail);
      }
    },
  };
}

/** The messages in the outbox addressed to `to`, oldest first (operator tools, the demo seed and tests read it). */
export async function readOutbox(dataDir: string, to: string): Promise<Mail[]> {
  const dir = outboxDir(dataDir);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const mails: Mail[] = [];
  for (const name of names.sort()) {
    const raw = await fs.readFile(path.join(dir, name), "utf8");
    const [head = "", ...body] = raw.split("\n\n");
    const field = (key: string) => head.match(new RegExp(`^${key}: (.*)$`, "m"))?.[1] ?? "";
    if (field("To").toLowerCase() === to.toLowerCase()) {
      mails.push({ to: field("To"), subject: field("Subject"), text: body.join("\n\n").trimEnd() });
    }
  }
  return mails;
}
