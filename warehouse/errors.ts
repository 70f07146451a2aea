// Errors that reach the CLI's single catch. Only cli.ts turns them into exit codes.

/** Exit codes, documented in README.md ("Exit codes"). */
export const EXIT = Object.freeze({
  ok: 0,
  failed: 1, // unexpected error (a bug): message plus a --debug hint
  usage: 2, // bad flags, settings or arguments
  stage: 3, // a build stage failed (file and cause named); `current` untouched
  checks: 4, // data checks failed; the build was kept but not published
  locked: 5, // another build holds the lock
  notFound: 6, // nothing to act on (no current build, unknown key id)
});

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, opts: { exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'CliError';
    this.exitCode = opts.exitCode ?? EXIT.failed;
  }
}

/** A stage failed: names the stage, the file it was running and the cause. */
export class StageError extends CliError {
  readonly stage: string;
  readonly file: string | null;
  constructor(stage: string, file: string | null, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`stage ${stage} failed${file ? ` in ${file}` : ''}: ${why}`, { exitCode: EXIT.stage, cause });
    this.name = 'StageError';
    this.stage = stage;
    this.file = file;
  }
}

export function isEnoent(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === 'ENOENT';
}
