import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

describe('webhook receiver example', () => {
  it('receives a workflow event and verifies its signature with the SDK', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./webhook-receiver.ts', import.meta.url))], { encoding: 'utf8' });
    expect(out).toMatch(/^verified workflow\.execution\.completed \(msg_\w+\)$/m);
    expect(out).toContain('received and verified: workflow.execution.completed');
    expect(out).not.toContain('refused a delivery');
  });
});
