import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { search, startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { components } from '@wvr/sdk';
import { runCli, spawnCli } from '../testing.js';

type Schemas = components['schemas'];

let data: string;
let web: LocalWeb;
let env: Record<string, string>;
beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'wvr-workflows-cli-'));
  web = await startLocalWeb();
  env = { WVR_SEARXNG_URL: web.search, WVR_SEARCH_PROVIDER: 'searxng' };
});
afterAll(async () => {
  rmSync(data, { recursive: true, force: true });
  await web.close();
});

const wvr = (...args: string[]) => runCli(['--data', data, ...args], env);
const json = <T>(stdout: string) => JSON.parse(stdout) as T;

const QUERY = 'surprising';
/** The local web's own search answer at a version: the oracle for the change counts. */
function truthAt(version: number): string[] {
  web.setVersion(version);
  return search(web.truth, { catalogue: web.catalogue, news: web.news, docs: web.docs }, QUERY).results.map((r) => r.url);
}

let searchWorkflowId = '';

describe('wvr workflows', { timeout: 180_000 }, () => {
  it('creates a search workflow from a YAML file, runs it across a site change and reports exactly what changed', async () => {
    const [v1, v2] = [truthAt(1), truthAt(2)];
    web.setVersion(1);
    const file = join(data, 'surprises.yaml');
    writeFileSync(
      file,
      ['name: Surprises', 'workflow_type: search', 'operation_config:', `  query: ${QUERY}`, '  max_results: 10', 'interval: 1 hour', 'tags: [cli, news]', ''].join('\n'),
    );
    const created = await wvr('workflows', 'create', '--file', file, '--json');
    expect(created.code).toBe(0);
    const workflow = json<Schemas['WorkflowCreateResponse']>(created.stdout).workflow!;
    expect(workflow).toMatchObject({ name: 'Surprises', status: 'active', interval: '1 hour', tags: ['cli', 'news'], workflow_type: 'search' });
    expect(workflow.next_run_at).not.toBeNull();
    searchWorkflowId = workflow.id;

    const first = await wvr('workflows', 'run', workflow.id);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Run #1 completed: ${v1.length} result(s), 1 credit(s)`);
    expect(first.stdout).toContain(`+${v1.length} new, -0 dropped, 0 retained`);

    web.setVersion(2);
    const second = json<Schemas['WorkflowExecuteResponse']>((await wvr('workflows', 'run', workflow.id, '--json')).stdout).execution!;
    const added = v2.filter((u) => !v1.includes(u));
    const dropped = v1.filter((u) => !v2.includes(u));
    expect(added.length + dropped.length).toBeGreaterThan(0);
    expect(second.result_changes).toMatchObject({
      net_new_count: added.length,
      dropped_count: dropped.length,
      retained_count: v2.filter((u) => v1.includes(u)).length,
    });

    const history = await wvr('workflows', 'executions', workflow.id, '--changes');
    expect(history.stdout).toMatch(/^SEQ\s+TRIGGER\s+STATUS\s+FINISHED_AT\s+RESULTS\s+NEW\s+DROPPED\s+RETAINED/m);
    expect(history.stdout).toMatch(new RegExp(`^2\\s+manual\\s+completed\\s+\\S+\\s+${v2.length}\\s+${added.length}\\s+${dropped.length}\\s`, 'm'));
    for (const url of added) expect(history.stdout).toContain(`  ${url}`);
    for (const url of dropped) expect(history.stdout).toContain(`  - ${url}`);
    expect(history.stdout).toContain('2 of 2');

    const shown = await wvr('workflows', 'show', workflow.id);
    expect(shown.stdout).toContain(`Surprises (${workflow.id})`);
    expect(shown.stdout).toContain('status active · every 1 hour');
    expect(shown.stdout).toContain(`Surprises run #2 completed at ${second.finished_at}: ${v2.length} result(s), +${added.length} new, -${dropped.length} dropped`);

    const listed = await wvr('workflows', 'list', '--tag', 'cli,news');
    expect(listed.stdout).toMatch(new RegExp(`^${workflow.id}\\s+Surprises\\s+active\\s+search\\s+every 1 hour`, 'm'));
    expect(listed.stdout).toContain('1 of 1');

    // --json is snake_case, like every other answer.
    const snapshot = json<{ upcoming: { id: string; next_run_at: string | null }[]; latest: Record<string, unknown>[] }>(
      (await wvr('workflows', 'watch', '--once', '--json')).stdout,
    );
    expect(snapshot.upcoming.map((u) => u.id)).toEqual([workflow.id]);
    expect(snapshot.upcoming[0]).toHaveProperty('next_run_at');
    expect(snapshot.latest[0]).toMatchObject({ workflow_id: workflow.id, seq: 2, net_new: added.length, dropped: dropped.length });
    expect(JSON.stringify(snapshot)).not.toMatch(/"[a-z]+[A-Z]\w*":/);
  });

  it('watch prints a line for each new run when stdout is not a terminal', async () => {
    const watcher = spawnCli(['--data', data, 'workflows', 'watch', searchWorkflowId, '--every', '1'], env);
    let [stdout, stderr] = ['', ''];
    watcher.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    watcher.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => watcher.on('close', resolve));
    // Waits name what they waited for and what the watcher printed, so a stall reads as a cause.
    const printed = async (text: string) => {
      for (const until = Date.now() + 60_000; !stdout.includes(text); await new Promise((resolve) => setTimeout(resolve, 200))) {
        if (Date.now() > until || watcher.exitCode !== null) throw new Error(`watch never printed "${text}" (exit ${watcher.exitCode}):\n${stdout}\n${stderr}`);
      }
    };
    try {
      await printed('Surprises run #2');
      expect(stdout.indexOf('Surprises run #1')).toBeLessThan(stdout.indexOf('Surprises run #2'));
      const run = await wvr('workflows', 'run', searchWorkflowId);
      expect(run, run.stderr).toMatchObject({ code: 0 });
      await printed('Surprises run #3');
      expect(stdout.match(/Surprises run #2/g)).toHaveLength(1);
    } finally {
      watcher.kill('SIGINT');
    }
    const stuck = setTimeout(() => watcher.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(stuck);
    expect(code, `watch did not end on Ctrl-C:\n${stderr}`).toBe(0);
  });

  it('creates from flags, pauses, resumes and deletes a crawl workflow, and quotes a dry run', async () => {
    const created = await wvr('workflows', 'create', '--name', 'Docs pages', '--url', `${web.docs}/docs`, '--max-pages', '2', '--interval-minutes', '30', '--json');
    expect(created.code).toBe(0);
    const w = json<Schemas['WorkflowCreateResponse']>(created.stdout).workflow!;
    expect(w).toMatchObject({ workflow_type: 'crawl', interval_minutes: 30, status: 'active', operation_config: { urls: [`${web.docs}/docs`], max_pages: 2 } });

    expect((await wvr('workflows', 'pause', w.id)).stdout).toBe(`Workflow "Docs pages" (${w.id}) is paused.\n`);
    const paused = json<Schemas['WorkflowList']>((await wvr('workflows', 'list', '--status', 'paused', '--json')).stdout);
    expect(paused.data.map((x) => x.id)).toEqual([w.id]);
    expect((await wvr('workflows', 'resume', w.id)).stdout).toMatch(new RegExp(`^Workflow "Docs pages" \\(${w.id}\\) is active, next run \\S+\\.$`, 'm'));

    expect((await wvr('workflows', 'delete', w.id)).stdout).toBe(`Deleted workflow ${w.id}.\n`);
    const gone = await wvr('workflows', 'show', w.id, '--json');
    expect(gone.code).toBe(1);
    expect(json<{ error: string }>(gone.stderr).error).toBe('not_found');

    const dry = await wvr('workflows', 'create', '--name', 'Maybe', '--query', 'laptops', '--interval', '1 day', '--stop', '{"type":"natural_language","description":"a laptop under 500 dollars appears"}', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Would cost 2 credit\(s\) per run, (balance \d+|\d+ used on the local plan)/);
  });

  it('refuses bad input: the API names the field at fault, the CLI catches what it can first', async () => {
    const file = join(data, 'cycle.json');
    const step = (id: string, dependsOn: string) => ({ id, type: 'search', depends_on: [dependsOn], config: { query: 'x' } });
    writeFileSync(file, JSON.stringify({ name: 'Loop', mode: 'multi_step', steps: [step('a', 'b'), step('b', 'a')] }));
    const cycle = await wvr('workflows', 'create', '--file', file, '--json');
    expect(cycle.code).toBe(1);
    expect(json<{ error: string; message: string }>(cycle.stderr).error).toBe('validation_error');

    const noName = await wvr('workflows', 'create', '--query', 'x');
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('(workflow_name_missing)');

    const badStop = await wvr('workflows', 'create', '--name', 'x', '--query', 'x', '--stop', '[1, 2]');
    expect(badStop.code).not.toBe(0);
    expect(badStop.stderr).toContain('--stop must be an object with a "type"');

    expect((await wvr('workflows', 'watch', '--json')).code).toBe(2);
  });
});
