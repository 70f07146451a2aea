// `reii serve` started as `npx reii serve` starts it (node bin/reii.js, no V8 flag) runs under the V8 flags of `npm start`
// (package.json scripts.serve): bin/reii.js replaces its node with one given them, in the same process (its id is the
// one the caller holds, so SIGTERM still drains it), and with the environment the script sets (MALLOC_ARENA_MAX). Read from the process's own command line (/proc, Linux). A node
// already given the flags (npm start, npm run serve) is not re-run (no flag twice).
import fs from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { serveArgs, serveEnv } from '../../scripts/bench/serve.ts';
import { REPO } from '../helpers/paths.ts';
import { BIN, cleanupCli, env, get, served, stop, tmp } from '../helpers/cli.ts';
// @ts-expect-error -- plain JavaScript (beside the executable), no declaration file
import { serverNodeEnv, serverNodeFlags } from '../../bin/node-flags.js';

afterAll(cleanupCli);

/** node's flags in the `npm run serve` script, read as the bench reads them: what comes before --import. */
const SCRIPT_FLAGS = ((args: string[]) => args.slice(0, args.indexOf('--import')))(serveArgs(REPO));
const commandLine = (pid: number): string[] => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
/** The environment the process was started with (execve's, as the C library read it at start). */
const environment = (pid: number): string[] => fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);

describe('the node flags of reii serve', () => {
  test('bin/reii.js reads the flags of package.json scripts.serve (the V8 heap flags npm start gives node)', () => {
    expect(SCRIPT_FLAGS).toEqual(expect.arrayContaining(['--max-semi-space-size=16', '--heap-growing-percent=50']));
    expect(serverNodeFlags()).toEqual(SCRIPT_FLAGS);
    // glibc's malloc, two arenas: the server's threads kept ~28 MB more in per-thread arenas (bench, same run)
    expect(serveEnv(REPO)).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(serverNodeEnv()).toEqual(serveEnv(REPO));
  });

  test('node bin/reii.js serve (what npx reii serve runs) serves under those flags, in the process started; SIGTERM drains it', async () => {
    const s = await served(['serve', '--port', '0', '--artifacts', tmp(), '--state', tmp()], env({})).ready;
    try {
      const argv = commandLine(s.child.pid!);
      expect(argv.slice(1, 1 + SCRIPT_FLAGS.length)).toEqual(SCRIPT_FLAGS);
      expect(argv.slice(1 + SCRIPT_FLAGS.length)).toEqual([BIN, 'serve', '--port', '0', expect.any(String), expect.any(String), expect.any(String), expect.any(String)]);
      expect(environment(s.child.pid!)).toContain('MALLOC_ARENA_MAX=2');
      expect((await get(`${s.url}/v1/health`)).status).toBe(200);
    } finally {
      expect(await stop(s)).toEqual({ code: 0, signal: null });
    }
    expect(s.err()).toContain('SIGTERM: draining');
  });

  test('a node already given the flags and the environment (npm start, npm run serve) keeps its command line: no flag twice', async () => {
    const s = await served(['serve', '--port', '0', '--artifacts', tmp(), '--state', tmp()], env(serveEnv(REPO)), SCRIPT_FLAGS).ready;
    try {
      expect(commandLine(s.child.pid!).slice(1)).toEqual([...SCRIPT_FLAGS, BIN, 'serve', '--port', '0', expect.any(String), expect.any(String), expect.any(String), expect.any(String)]);
      expect(environment(s.child.pid!)).toContain('MALLOC_ARENA_MAX=2');
    } finally {
      // SIGTERM as soon as it says it serves: it drains (its handlers are set before that line)
      expect(await stop(s)).toEqual({ code: 0, signal: null });
    }
    expect(s.err()).toContain('SIGTERM: draining');
  });
});
