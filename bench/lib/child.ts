import { fork } from 'node:child_process';

/**
 * Parent side: forks a built worker, hands it its configuration over IPC (a 5,000-URL list is
 * too long for argv) and resolves with the one message it answers.
 */
export function runWorker<C, R>(file: string, config: C, execArgv: string[] = []): Promise<R> {
  return new Promise((resolve, reject) => {
    const child = fork(file, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: R | undefined;
    child.on('message', (m) => (result = m as R));
    child.on('error', reject);
    child.on('exit', (code) => (result !== undefined ? resolve(result) : reject(new Error(`${file} exited with ${code} and no result`))));
    child.send(config as object);
  });
}

/** Worker side: the configuration the parent sends first. */
export function receiveConfig<C>(): Promise<C> {
  return new Promise((resolve) => process.once('message', (m) => resolve(m as C)));
}

/** Worker side: the result, then exit (open handles of the contender must not keep it alive). */
export async function sendResult(result: unknown): Promise<never> {
  await new Promise<void>((resolve) => process.send!(result as object, () => resolve()));
  process.exit(0);
}
