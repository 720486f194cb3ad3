import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestServer, type TestServer } from '../testing.js';
import { routes } from './index.js';

let t: TestServer;
let ownerToken: string;
let outsiderToken: string;
let owner: { id: string; email: string };
let orgId: string;

const WEBHOOK = 'https://hooks.example.test/owner-secret-hook';

beforeEach(async () => {
  t = await openTestServer();
  owner = await t.engine.accounts.ensureUser({ email: 'owner@x.test', plan: 'pro' });
  const outsider = await t.engine.accounts.ensureUser({ email: 'outsider@x.test' });
  await t.engine.credits.grant(owner.id, 1_000);
  orgId = (await t.engine.accounts.createOrganization({ name: 'Acme', ownerUserId: owner.id })).id;
  ownerToken = (await t.engine.tokens.issue(owner.id, { name: 'owner' })).token;
  outsiderToken = (await t.engine.tokens.issue(outsider.id, { name: 'outsider' })).token;
});
afterEach(() => t.close());

async function call(method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const res = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res;
}

/** Shares a resource both publicly and with the owner's organization: the org id must still not show. */
const shareEverywhere = (path: string) => call('POST', `${path}/share`, ownerToken, { public_share: true, shared_with_org: true, organization_id: orgId });

/** One publicly shared resource of every kind, each carrying owner-only details. */
async function publishEverything() {
  const hidden = (await call('POST', '/v1/sessions', ownerToken, { name: 'private notebook' })).json().id as string;
  const session = (await call('POST', '/v1/sessions', ownerToken, { name: 'shared research', intent_context: 'GPU prices' })).json().id as string;
  await shareEverywhere(`/v1/sessions/${session}`);
  const crawl = (
    await call('POST', '/v1/crawls', ownerToken, { urls: ['https://shop.example.test/'], webhook_url: WEBHOOK, session_id: hidden })
  ).json().id as string;
  await shareEverywhere(`/v1/crawls/${crawl}`);
  const workflow = (
    await call('POST', '/v1/workflows', ownerToken, {
      name: 'watch',
      workflow_type: 'search',
      operation_config: { query: 'gpu prices' },
      notification_config: { webhook_url: WEBHOOK },
      session_id: hidden,
      interval: '1 day',
    })
  ).json().workflow.id as string;
  await shareEverywhere(`/v1/workflows/${workflow}`);
  return { hidden, ids: { sessions: session, crawls: crawl }, crawl, workflow };
}

function privateMarkers(hidden: string): RegExp[] {
  return [/owner-secret-hook/, /webhook_url/, new RegExp(orgId), new RegExp(owner.id), /owner@x\.test/, new RegExp(hidden), /"token/];
}

describe('public views', () => {
  it('walks every public route and finds no owner-only field (webhook, organization, owner, session)', async () => {
    const { hidden, ids } = await publishEverything();
    const publicRoutes = routes.filter((r) => r.auth === 'public' && r.path.startsWith('/public/'));
    expect(publicRoutes.length).toBeGreaterThan(0);
    for (const route of publicRoutes) {
      const kind = /^\/public\/([a-z_]+)\//.exec(route.path)?.[1] as keyof typeof ids | undefined;
      // A new public route must get a published fixture here before it can ship.
      expect(kind && ids[kind], `no fixture for public route ${route.path}`).toBeTruthy();
      const res = await call('GET', `/v1${route.path.replace(':id', ids[kind!])}`);
      expect(res.json().access_level ?? 'public', route.path).toBe('public');
      for (const marker of privateMarkers(hidden)) expect(res.body, `${route.path} shows ${marker}`).not.toMatch(marker);
    }
  });

  it('shows another user reading a public crawl or workflow through the API the same safe subset', async () => {
    const { hidden, crawl, workflow } = await publishEverything();
    for (const path of [`/v1/crawls/${crawl}`, `/v1/workflows/${workflow}`]) {
      const res = await call('GET', path, outsiderToken);
      expect(res.json().access_level).toBe('public');
      for (const marker of privateMarkers(hidden)) expect(res.body, `${path} shows ${marker}`).not.toMatch(marker);
    }
    // The owner still sees all of it.
    expect((await call('GET', `/v1/crawls/${crawl}`, ownerToken)).json()).toMatchObject({
      configuration: { webhook_url: WEBHOOK, session_id: hidden },
      sharing: { organization_id: orgId },
    });
  });
});
