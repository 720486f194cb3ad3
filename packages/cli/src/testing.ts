import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('./bin.ts', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real CLI in a child process, as a user's shell would. A run that outlives `timeoutMs` is
 * killed and reported (code null, stderr saying so) rather than leaving its test to hang.
 */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      stderr += `\n[test] wvr ${args.join(' ')} still running after ${timeoutMs} ms; killed\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', bin, ...args], {
    env: { ...process.env, WVR_API_URL: '', WVR_API_TOKEN: '', WVR_USER: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Starts `wvr serve --port 0 --json` on a data folder or a PostgreSQL database (with any more serve
 * options) and resolves with the server and the URL it printed.
 */
export async function serveCli(store: string | { database: string }, serveArgs: string[] = []): Promise<{ server: ChildProcess; url: string }> {
  const where = typeof store === 'string' ? ['--data', store] : ['--database', store.database];
  const server = spawnCli([...where, 'serve', '--port', '0', '--allow-private-network', '--json', ...serveArgs]);
  let text = '';
  let stderr = '';
  server.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      text += d.toString();
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    server.once('exit', (code) => reject(new Error(`wvr serve exited with ${code} before it listened:\n${stderr}`)));
  });
  return { server, url };
}
