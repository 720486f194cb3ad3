import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package (named, or loaded by `load`) loaded when first asked for, not when the engine starts: loading stays
 * synchronous at the place that first needs it, and a process that never needs it never pays for it.
 */
export function onFirstUse<T>(package_: string | (() => T)): () => T {
  const load = typeof package_ === 'string' ? () => require(package_) as T : package_;
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
