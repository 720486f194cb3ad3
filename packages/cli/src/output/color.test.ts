import { describe, expect, it } from 'vitest';
import { applyColorPreference } from './color.js';

describe('applyColorPreference', () => {
  it('turns NO_COLOR into FORCE_COLOR=0 for chalk, and lets an explicit FORCE_COLOR win', () => {
    const off: NodeJS.ProcessEnv = { NO_COLOR: '1' };
    applyColorPreference(off);
    expect(off.FORCE_COLOR).toBe('0');
    const forced: NodeJS.ProcessEnv = { NO_COLOR: '1', FORCE_COLOR: '3' };
    applyColorPreference(forced);
    expect(forced.FORCE_COLOR).toBe('3');
    const plain: NodeJS.ProcessEnv = { NO_COLOR: '' };
    applyColorPreference(plain);
    expect(plain.FORCE_COLOR).toBeUndefined();
  });
});
