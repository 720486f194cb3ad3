/**
 * cascade_condition grammar: `<key>.count <op> <n>`, `<key>.non_empty` or `<key>.empty`,
 * where <key> is a dependency's output_key (or id), or `any` for all of them together.
 */
const PATTERN = /^\s*([A-Za-z_][\w-]*)\.(?:(count)\s*(>=|<=|==|!=|>|<)\s*(\d+)|(non_empty|empty))\s*$/;

export interface Cascade {
  key: string;
  test(count: number): boolean;
}

export function parseCascade(text: string): Cascade | null {
  const m = PATTERN.exec(text);
  if (!m) return null;
  const key = m[1]!;
  if (m[5]) return { key, test: (n) => (m[5] === 'empty' ? n === 0 : n > 0) };
  const n = Number(m[4]);
  const ops: Record<string, (a: number) => boolean> = {
    '>': (a) => a > n,
    '<': (a) => a < n,
    '>=': (a) => a >= n,
    '<=': (a) => a <= n,
    '==': (a) => a === n,
    '!=': (a) => a !== n,
  };
  return { key, test: ops[m[3]!]! };
}
