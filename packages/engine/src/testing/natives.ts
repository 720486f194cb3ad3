import { execFileSync } from 'node:child_process';

/**
 * Runs `script` (an ES module, TypeScript imports allowed) in a fresh Node process started with V8's natives syntax
 * (`%HaveSameMap`, `%GetOptimizationStatus`, ...), which only a process started with it may use, and returns what it
 * printed. For tests of what V8 makes of the readers' objects and code.
 */
export function runWithNativesSyntax(script: string): string {
  return execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
}
