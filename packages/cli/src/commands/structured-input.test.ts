import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { loadStructured } from './structured-input.js';

const dir = mkdtempSync(join(tmpdir(), 'wvr-structured-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadStructured', () => {
  it('reads inline JSON, and YAML or JSON files', () => {
    expect(loadStructured('{"type":"always"}', '--stop')).toEqual({ type: 'always' });
    const yaml = join(dir, 'w.yaml');
    writeFileSync(yaml, 'name: Watch\noperation_config:\n  query: gpu\ntags: [a, b]\n');
    expect(loadStructured(yaml, '--file')).toEqual({ name: 'Watch', operation_config: { query: 'gpu' }, tags: ['a', 'b'] });
    const json = join(dir, 'w.json');
    writeFileSync(json, '{"name":"J"}');
    expect(loadStructured(json, '--file')).toEqual({ name: 'J' });
  });

  it('says which option and source hold the broken text', () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'name: [unclosed\n');
    expect(() => loadStructured(bad, '--file')).toThrow(InvalidArgumentError);
    expect(() => loadStructured(bad, '--file')).toThrow(`--file: file ${bad} is not valid JSON or YAML`);
    expect(() => loadStructured('{"a":', '--stop')).toThrow('--stop: inline text is not valid JSON or YAML');
  });
});
