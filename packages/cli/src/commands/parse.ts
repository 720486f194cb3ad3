import { InvalidArgumentError } from 'commander';

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of 1 or more');
  return n;
}

/** A whole number from `min` to `max`, as an option's parser: `intBetween(1, 64)`. */
export function intBetween(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

/** Offsets start at 0, unlike page sizes. */
export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number of 0 or more');
  return n;
}

/** For options that may be comma-separated, repeated, or both: `--tag a,b --tag c`. */
export const commaList = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];

export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port from 0 to 65535');
  return n;
}
