import type { Transporter } from 'nodemailer';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface EmailResult {
  ok: boolean;
  error: string | null;
}

/** SMTP through nodemailer; absent when no SMTP URL is configured, and then email deliveries fail with a clear reason. */
export class EmailSender {
  /** nodemailer is loaded with the first email, not with every engine. */
  private transport: Promise<Transporter> | null = null;

  constructor(
    private readonly smtpUrl: string | undefined,
    private readonly from: string,
  ) {}

  async send(message: EmailMessage): Promise<EmailResult> {
    if (!this.smtpUrl) return { ok: false, error: 'smtp_not_configured: set WVR_SMTP_URL or EngineOptions.smtpUrl' };
    const url = this.smtpUrl;
    this.transport ??= import('nodemailer').then((m) => m.default.createTransport(url));
    try {
      await (await this.transport).sendMail({ from: this.from, ...message });
      return { ok: true, error: null };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  close(): void {
    void this.transport?.then((t) => t.close());
  }
}
