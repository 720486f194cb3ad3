import { createEngine, type Engine, type Principal } from '@wvr/engine';
import type { Backend, TokenCreateOptions } from './backend.js';

export const DEFAULT_LOCAL_USER = 'local@wvr.localhost';

/** The engine in this process, on the data folder, acting as one local account. */
export class LocalBackend implements Backend {
  readonly kind = 'local';
  readonly engine: Engine;

  constructor(
    dataDir: string,
    private readonly userEmail: string = DEFAULT_LOCAL_USER,
  ) {
    // The local CLI crawls the user's own machine and network on purpose (architecture page).
    this.engine = createEngine({ dataDir, allowPrivateNetwork: true });
  }

  private principal(): Principal {
    return this.engine.accounts.localPrincipal(this.engine.accounts.ensureUser({ email: this.userEmail }));
  }

  async createToken(options: TokenCreateOptions) {
    const user = this.engine.accounts.ensureUser({
      email: this.userEmail,
      ...(options.plan ? { plan: options.plan } : {}),
    });
    const { plan: _plan, ...body } = options;
    return this.engine.tokens.issue(user.id, body);
  }

  async listTokens() {
    return this.engine.tokens.list(this.principal());
  }

  async revokeToken(id: string) {
    return this.engine.tokens.revoke(this.principal(), id);
  }

  async credits() {
    return this.engine.credits.summary(this.principal());
  }

  async grantCredits(email: string, amount: number) {
    const user = this.engine.accounts.ensureUser({ email });
    return this.engine.credits.grant(user.id, amount, 'granted with wvr credits grant');
  }

  close() {
    return this.engine.close();
  }
}
