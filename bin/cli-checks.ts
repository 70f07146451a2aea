// The CLI's checks of what it is given, each a usage error (exit 2) naming the flag and the fix, where a bad flag
// value had gone on to an exit 0 that did nothing or an "unexpected error" (exit 1, the code of a bug). Found by the
// h74fuzz sweep of `reii` subcommands with bad flags (test/bin/h74-cli-fuzz.test.ts).
import fs from 'node:fs';
import { CliError, EXIT } from '../warehouse/errors.ts';
import type { Settings } from '../warehouse/settings.ts';

/** A sources folder that does not exist is a typo: `reii sources list --sources /nope` listed every source absent, exit 0. */
export function requireSources(dir: string): void {
  if (!fs.existsSync(dir)) throw new CliError(`sources folder ${dir} does not exist (set --sources or REII_SOURCES)`, { exitCode: EXIT.usage });
}

/** `sources pull --only` with an id no source has: a usage error before any download (it was a failed download, exit 1). */
export async function requireSourceIds(only: string[] | undefined): Promise<void> {
  const { SOURCES } = await import('../pipelines/sources/registry.ts'); // imported where used: `reii serve` loads no pipeline
  const bad = (only ?? []).filter((id) => !SOURCES.some((s) => s.id === id));
  if (bad.length) throw new CliError(`unknown source id(s) ${bad.join(', ')}; open sources: ${SOURCES.filter((s) => s.open).map((s) => s.id).join(', ')}`, { exitCode: EXIT.usage });
}

/** `reii query ""` answered "(no rows)", exit 0, for no SQL at all. */
export function requireSql(sql: string): void {
  if (sql.trim() === '') throw new CliError('no SQL given: reii query "select ..."', { exitCode: EXIT.usage });
}

/** Why the server could not listen, as a usage error; `--host 999.1.1.1` was "unexpected error: getaddrinfo ENOTFOUND". */
export function listenError(err: unknown, settings: Readonly<Settings>): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if ((err as NodeJS.ErrnoException).path !== undefined) return err; // a file's error (the state folder), not the socket's
  const why = code === 'EADDRINUSE' ? 'is already in use' : code === 'EACCES' ? 'may not be bound by this user'
    : code === 'EADDRNOTAVAIL' ? 'is not an address of this machine' : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'names no address this machine can resolve' : null;
  if (why === null) return err;
  return new CliError(`cannot listen on ${settings.host} port ${settings.port}: it ${why} (choose another with --port or PORT, --host or REII_HOST)`, { exitCode: EXIT.usage, cause: err });
}

/** A state or artifacts folder that cannot be made or written (`--state /dev/null/x`, `--artifacts /dev/null/x`: ENOTDIR,
 *  exit 1 "unexpected error") is a setting to fix: a usage error naming the folder and its flag. Other errors pass. */
export function folderError(err: unknown, dir: string, what: 'state' | 'artifacts'): unknown {
  const e = err as NodeJS.ErrnoException;
  if (!['ENOTDIR', 'EACCES', 'EROFS', 'EEXIST', 'EPERM', 'ENOENT'].includes(e.code ?? '') || typeof e.path !== 'string' || !e.path.startsWith(dir)) return err;
  const flags = what === 'state' ? '--state or REII_STATE' : '--artifacts or REII_ARTIFACTS';
  return new CliError(`${what} folder ${dir} cannot be used (${e.code}: ${e.message.replace(/^\w+: /, '')}); set ${flags} to a folder this user may write`, { exitCode: EXIT.usage, cause: err });
}
