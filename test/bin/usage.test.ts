// Mistakes at the `reii` command line as real processes (node bin/reii.js, through test/helpers/cli.ts): usage
// errors exit 2 with a one-line message and no stack, --help exits 0, and an unexpected error is one line with a
// --debug hint (with --debug, the stack).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { STACK_LINE, cleanupCli, env, reii, tmp } from '../helpers/cli.ts';

afterAll(cleanupCli);

// ---------------------------------------------------------------------------------------------------

describe('usage errors and --debug', () => {
  const e = (): NodeJS.ProcessEnv => env({ REII_ARTIFACTS: tmp(), REII_STATE: tmp() });

  test('an unknown plan and a bad --rpm exit 2 with a one-line message and no stack', async () => {
    const plan = await reii(['keys', 'create', '--plan', 'gold'], e());
    expect(plan).toMatchObject({ code: 2, stdout: '', stderr: 'reii: unknown plan "gold"; plans are starter, builder, pro, scale, enterprise\n' });
    const rpm = await reii(['keys', 'create', '--plan', 'pro', '--rpm', '0'], e());
    expect(rpm).toMatchObject({ code: 2, stdout: '', stderr: 'reii: --rpm must be a whole number of at least 1\n' });
    const port = await reii(['serve', '--port', 'abc'], e());
    expect(port.code).toBe(2);
    expect(port.stderr).toBe('reii: setting port must be a whole number from 0 to 65535, got "abc"\n');
  });

  test('an unknown command, an unknown flag, a missing --plan and a bad --format choice name the mistake and exit 2, with no stack; --help exits 0', async () => {
    const cases: [string[], string][] = [
      [['frobnicate'], `error: unknown command 'frobnicate'`],
      [['keys', 'list', '--bogus'], `error: unknown option '--bogus'`],
      [['keys', 'create'], `error: required option '--plan <plan>' not specified`],
      [['query', 'select 1', '--format', 'xml'], `error: option '--format <f>' argument 'xml' is invalid`],
    ];
    const runs = await Promise.all(cases.map(([args]) => reii(args, e())));
    for (const [i, [args, message]] of cases.entries()) {
      const r = runs[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], args.join(' ')).toContain(message);
      expect(r.stderr).toContain('Usage: reii');
      expect(r.stderr).not.toMatch(STACK_LINE);
      expect(r.stdout).toBe('');
    }
    // no command at all is bad usage too (the help goes to stderr); asking for help is not
    const [none, help, keysHelp] = await Promise.all([reii([], e()), reii(['--help'], e()), reii(['keys', '--help'], e())]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: reii');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('Usage: reii');
    expect(keysHelp).toMatchObject({ code: 0, stderr: '' });
    expect(keysHelp.stdout).toContain('Usage: reii keys');
  });

  test('an unexpected error: one line and a --debug hint; with --debug, the stack', async () => {
    // a state folder whose state.db is a folder: no setting is wrong (a --state that is a file is a usage error since
    // h74fuzz, bin/cli-checks.ts), the store cannot open its file: an error no check foresees
    const state = tmp();
    fs.mkdirSync(path.join(state, 'state.db'));
    const plain = await reii(['keys', 'create', '--plan', 'pro', '--state', state], e());
    expect(plain.code).toBe(1);
    expect(plain.stdout).toBe('');
    const lines = plain.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^reii: unexpected error: EISDIR: .*state\.db/);
    expect(lines[1]).toBe('run again with --debug for the stack trace');

    const debug = await reii(['--debug', 'keys', 'create', '--plan', 'pro', '--state', state], e());
    expect(debug.code).toBe(1);
    expect(debug.stderr.split('\n')[0]).toBe(lines[0]);
    expect(debug.stderr).toMatch(STACK_LINE);
    expect(debug.stderr).toMatch(/at .*api\/keys\.ts:\d+/); // the frame where it happened
    expect(debug.stderr).not.toContain('run again with --debug');
  });
});
