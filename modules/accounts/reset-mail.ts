import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTransport } from "nodemailer";
import type { Logger } from "../kernel/logger";

/** One password reset link to send: to whom, for which account, and the link itself. */
export interface ResetMail {
  to: string;
  username: string;
  link: string;
}

/** Sends a reset link (SMTP) or leaves it where an operator finds it (log and outbox). */
export type ResetMailer = (mail: ResetMail) => Promise<void>;

export const RESET_MAIL_SUBJECT = "[타자마당] 비밀번호 재설정 안내";

export function resetMailText(mail: ResetMail) {
  return [
    `${mail.username}님, 안녕하세요.`,
    "",
    "아래 링크에서 새 비밀번호를 설정해주세요. 링크는 30분 동안 한 번만 쓸 수 있습니다.",
    mail.link,
    "",
    "비밀번호 찾기를 요청하지 않으셨다면 이 메일을 무시해주세요.",
  ].join("\n");
}

/**
 * Without SMTP (development, a small install, the `npm start` default): the message goes to a file in
 * `DATA_DIR/outbox/` (one message per file, readable by the server's account only), so the operator can hand it
 * over. The log names the file and nothing else: a link opens the account for 30 minutes, and logs are copied,
 * shipped and kept far more widely than the data folder.
 */
export function outboxMailer(dataDir: string, log: Logger): ResetMailer {
  const folder = join(dataDir, "outbox");
  return async (mail) => {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const file = join(folder, `${Date.now()}-${crypto.randomUUID()}.txt`);
    const message = `To: ${mail.to}\nSubject: ${RESET_MAIL_SUBJECT}\n\n${resetMailText(mail)}\n`;
    await writeFile(file, message, { mode: 0o600 });
    log.warn("password reset mail written to the outbox (SMTP_URL is not set)", { file });
  };
}

/** SMTP_URL set (`smtp://user:pass@host:587`, `smtps://…`): the link goes out by mail, nowhere else. */
export function smtpMailer(smtpUrl: string, from: string): ResetMailer {
  const transport = createTransport(smtpUrl);
  return async (mail) => {
    await transport.sendMail({ from, to: mail.to, subject: RESET_MAIL_SUBJECT, text: resetMailText(mail) });
  };
}
