import { hostname } from 'node:os';
import type { RandomSource } from './ids.js';

/**
 * Who holds a piece of work in a shared database: `host:pid:uuid`. When the holder was a process
 * on this host that no longer exists (kill -9, a crash, a power cut), its work can be taken over at once.
 */
export function ownerId(random: RandomSource): string {
  return `${hostname()}:${process.pid}:${random.uuid()}`;
}

/** True only when `owner` names a process on this host that is gone; another host's owners are never judged here. */
export function ownerGone(owner: string | null | undefined): boolean {
  const [ownerHost, pid] = (owner ?? '').split(':');
  if (ownerHost !== hostname() || !pid) return false;
  return !processAlive(Number(pid));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
