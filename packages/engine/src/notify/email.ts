import nodemailer, { type Transporter } from 'nodemailer';

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
  private readonly transport: Transporter | null;

  constructor(
    smtpUrl: string | undefined,
    private readonly from: string,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  }

  async send(message: EmailMessage): Promise<EmailResult> {
    if (!this.transport) return { ok: false, error: 'smtp_not_configured: set WVR_SMTP_URL or EngineOptions.smtpUrl' };
    try {
      await this.transport.sendMail({ from: this.from, ...message });
      return { ok: true, error: null };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  close(): void {
    this.transport?.close();
  }
}
