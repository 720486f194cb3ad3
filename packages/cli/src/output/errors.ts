/** A failure the CLI explains itself, with the exit code it should end with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode = 1,
    readonly suggestions: string[] = [],
    /** The `error` field of the --json body. */
    readonly type = 'cli_error',
  ) {
    super(message);
  }
}
