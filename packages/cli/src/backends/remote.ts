import { createClient, type WvrClient } from '@wvr/sdk';
import type { CreditsSummary, LedgerEntry, TokenCreated, TokenList, TokenRecord } from '@wvr/engine';
import { CliError } from '../output/errors.js';
import type { Backend, TokenCreateOptions } from './backend.js';

/** A wvr server, through the SDK. The API's shapes are the engine's, so the types line up. */
export class RemoteBackend implements Backend {
  readonly kind = 'remote';
  private readonly client: WvrClient;

  constructor(baseUrl: string, token: string | undefined) {
    if (!token) {
      throw new CliError('A token is needed with --remote: pass --token or set WVR_API_TOKEN.', 'token_missing', 2);
    }
    this.client = createClient({ baseUrl, token });
  }

  async createToken(options: TokenCreateOptions): Promise<TokenCreated> {
    if (options.plan) {
      throw new CliError('--plan only applies to the local engine; a remote token is created for your own account.', 'local_only', 2);
    }
    const { plan: _plan, ...body } = options;
    return (await this.client.tokens.create(body as Parameters<WvrClient['tokens']['create']>[0])) as TokenCreated;
  }

  async listTokens(): Promise<TokenList> {
    return (await this.client.tokens.list()) as TokenList;
  }

  async revokeToken(id: string): Promise<TokenRecord> {
    return (await this.client.tokens.revoke(id)) as TokenRecord;
  }

  async credits(): Promise<CreditsSummary> {
    return (await this.client.credits.get()) as CreditsSummary;
  }

  async grantCredits(): Promise<LedgerEntry> {
    throw new CliError('Granting credits is an operator action on the local engine; run it without --remote on the server machine.', 'local_only', 2);
  }

  async close() {}
}
