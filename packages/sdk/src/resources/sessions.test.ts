import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, paginate, WvrApiError } from '../index.js';
import { startTestApi, type TestApi } from '../testing.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ email: 'sdk@x.test' });
});
afterAll(() => api.close());

describe('sdk sessions', () => {
  it('drives a session through its lifecycle and reads it publicly once shared', async () => {
    const client = api.client;
    const created = await client.sessions.create({ name: 'From the SDK', metadata: { tags: ['sdk'] }, session_config: { max_operations: 4 } });
    expect(created.session_config.max_operations).toBe(4);
    await client.sessions.create({ name: 'Second' });
    const names: string[] = [];
    for await (const s of paginate(client.sessions.list, { limit: 1 })) names.push(s.name);
    expect(names.sort()).toEqual(['From the SDK', 'Second']);
    expect((await client.sessions.list({ tag: 'sdk' })).total).toBe(1);

    expect((await client.sessions.update(created.id, { description: 'now described' })).description).toBe('now described');
    expect((await client.sessions.timeline(created.id)).data).toEqual([]);

    const anonymous = createClient({ baseUrl: api.url });
    await expect(anonymous.sessions.public.get(created.id)).rejects.toBeInstanceOf(WvrApiError);
    await client.sessions.share(created.id, { public_share: true });
    expect((await anonymous.sessions.public.get(created.id)).access_level).toBe('public');
    expect((await anonymous.sessions.public.timeline(created.id)).total).toBe(0);

    await client.sessions.complete(created.id);
    const archived = await client.sessions.archive(created.id);
    expect(archived.status).toBe('archived');
    const error = await client.sessions.complete(created.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WvrApiError);
    expect((error as WvrApiError).code).toBe('session_archived');
    await client.sessions.delete(created.id);
    expect((await client.sessions.list()).total).toBe(1);
  });
});
