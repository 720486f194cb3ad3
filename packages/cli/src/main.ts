import { CommanderError, type Command } from 'commander';
import { buildProgram } from './program.js';
import { consoleOutput, reportError } from './output/print.js';
import { applyColorPreference } from './output/color.js';

/** Commander copies settings only to commands made with .command(), not to those added with addCommand(). */
function overrideExits(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) overrideExits(sub);
}

/** Runs the CLI and returns its exit code; errors are reported once, here. */
export async function main(argv: string[]): Promise<number> {
  applyColorPreference();
  const program = buildProgram();
  overrideExits(program);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    return reportError(consoleOutput(argv.includes('--json')), error);
  }
}
