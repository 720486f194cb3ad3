/**
 * --json is snake_case like the API. CLI-made values (watch snapshots) are camelCase inside the
 * code; they pass through this on the way out. Never used on API responses, whose nested user
 * data (extracted fields, metadata) must keep its own keys.
 */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(v)]));
}
