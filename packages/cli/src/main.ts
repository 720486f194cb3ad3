import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { consoleOutput, reportError } from './output/print.js';

/** Runs the CLI and returns its exit code; errors are reported once, here. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram().exitOverride();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    return reportError(consoleOutput(argv.includes('--json')), error);
  }
}
