import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package (by name, or by the function given) loaded when first asked for, not when the engine starts:
 * loading stays synchronous at the place that first needs it, and a process that never needs it never pays for it.
 */
export function onFirstUse<T>(source: string | (() => T)): () => T {
  const load = typeof source === 'string' ? () => require(source) as T : source;
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
