import { afterEach, describe, expect, it } from 'vitest';
import { resolveOptions } from './options.js';
import { WvrError } from './errors.js';

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['WVR_PER_HOST_CONCURRENCY', 'WVR_PARSE_WORKERS']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const refusal = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof WvrError ? error.toBody() : error;
  }
};

describe('engine options from the environment', () => {
  it('takes requests per site and reader threads from the environment when the options leave them unset', () => {
    delete process.env.WVR_PER_HOST_CONCURRENCY;
    delete process.env.WVR_PARSE_WORKERS;
    expect(resolveOptions({}).fetchLimits.perHostConcurrency).toBe(2);
    expect(resolveOptions({}).parseWorkers).toBeUndefined();
    process.env.WVR_PER_HOST_CONCURRENCY = '8';
    process.env.WVR_PARSE_WORKERS = '0';
    expect(resolveOptions({}).fetchLimits.perHostConcurrency).toBe(8);
    expect(resolveOptions({}).parseWorkers).toBe(0);
    // Options given in code win over the environment.
    const given = resolveOptions({ fetchLimits: { perHostConcurrency: 3 }, parseWorkers: 1 });
    expect([given.fetchLimits.perHostConcurrency, given.parseWorkers]).toEqual([3, 1]);
    // An empty variable counts as unset.
    process.env.WVR_PER_HOST_CONCURRENCY = '';
    expect(resolveOptions({}).fetchLimits.perHostConcurrency).toBe(2);
  });

  it('refuses a value out of range or not a whole number, naming the variable', () => {
    for (const bad of ['0', '65', '2.5', 'eight', ' ']) {
      process.env.WVR_PER_HOST_CONCURRENCY = bad;
      expect(refusal(() => resolveOptions({})), bad).toMatchObject({
        error: 'validation_error',
        code: 'invalid_per_host_concurrency',
        message: `WVR_PER_HOST_CONCURRENCY must be a whole number from 1 to 64, not "${bad}".`,
      });
    }
    delete process.env.WVR_PER_HOST_CONCURRENCY;
    process.env.WVR_PARSE_WORKERS = '-1';
    expect(refusal(() => resolveOptions({}))).toMatchObject({ code: 'invalid_parse_workers', message: 'WVR_PARSE_WORKERS must be a whole number from 0 to 64, not "-1".' });
  });
});
