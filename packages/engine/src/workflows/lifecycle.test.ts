import { describe, expect, it } from 'vitest';
import { isWvrError } from '../core/errors.js';
import { assertEditable, assertRunnable, assertTransition } from './lifecycle.js';

const codeOf = (fn: () => void) => {
  try {
    fn();
    return null;
  } catch (error) {
    return isWvrError(error) ? `${error.status} ${error.code}` : 'not a WvrError';
  }
};

describe('workflow lifecycle', () => {
  it('allows the documented moves and refuses the rest with 409', () => {
    expect(codeOf(() => assertTransition('w', 'active', 'paused'))).toBeNull();
    expect(codeOf(() => assertTransition('w', 'completed', 'active'))).toBeNull();
    expect(codeOf(() => assertTransition('w', 'stopped', 'active'))).toBe('409 workflow_transition_invalid');
    expect(codeOf(() => assertTransition('w', 'archived', 'active'))).toBe('409 workflow_transition_invalid');
    expect(codeOf(() => assertTransition('w', 'planning', 'active'))).toBe('409 workflow_transition_invalid');
  });

  it('runs by hand only active, paused and failed workflows, and freezes archived and planning ones', () => {
    expect(['active', 'paused', 'failed'].map((s) => codeOf(() => assertRunnable('w', s as 'active')))).toEqual([null, null, null]);
    expect(codeOf(() => assertRunnable('w', 'completed'))).toBe('409 workflow_completed');
    expect(codeOf(() => assertEditable('w', 'archived'))).toBe('409 workflow_archived');
    expect(codeOf(() => assertEditable('w', 'planning'))).toBe('409 workflow_planning');
  });
});
