import type { Logger } from "pino";
import type { Config } from "../../config";

export type InvitationMail = { to: string; clinicName: string; role: string; link: string; expiresAt: Date };

/**
 * Sends the invitation link when SMTP_URL is set. A failed delivery is logged (without the link, which is a
 * credential) and reported as not sent: the admin still has the link in the toast and on the clipboard.
 */
export async function sendInvitationMail(config: Config, logger: Logger, mail: InvitationMail): Promise<boolean> {
  if (!config.smtp) return false;
  try {
    // Loaded when a mail is sent, not at start (idle memory, issue 30).
    const { default: nodemailer } = await import("nodemailer");
    const transport = nodemailer.createTransport(config.smtp.url);
    await transport.sendMail({
      from: config.smtp.from,
      to: mail.to,
      subject: `You are invited to join ${mail.clinicName} on Sonoscribe`,
      text: [
        `You have been invited to join ${mail.clinicName} on Sonoscribe as ${mail.role === "admin" ? "an admin" : "a sonographer"}.`,
        "",
        `Accept the invitation: ${mail.link}`,
        "",
        `The link works once and expires on ${mail.expiresAt.toUTCString()}.`,
        "If you did not expect this invitation, you can ignore this e-mail.",
      ].join("\n"),
    });
    return true;
  } catch (error) {
    logger.warn({ err: error instanceof Error ? error.message : String(error) }, "invitation e-mail not sent");
    return false;
  }
}
