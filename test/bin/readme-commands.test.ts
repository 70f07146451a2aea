// README.md's command table against the CLI itself: each command's `--help` (a real process, bin/reii.js) lists the
// flags it takes, and the README row of that command names every one of them, and no flag the command lacks. Before
// h68user the rows of `check`, `start`, `query`, `sources list`, `sources pull` and `build` left flags out (`check
// --json`, `query --artifacts`, `sources list --sources`, `sources pull --concurrency`...).
import fs from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupCli, env, reii, tmp } from '../helpers/cli.ts';
import { repoPath } from '../helpers/paths.ts';

afterAll(cleanupCli);

const README = fs.readFileSync(repoPath('README.md'), 'utf8');

/** The first cell of the command table's row that starts with `reii <words>` (keys revoke and rotate share the row
 *  of keys list). */
function rowOf(words: string): string {
  const lead = ['keys revoke', 'keys rotate'].includes(words) ? 'keys list' : words;
  const rows = README.split('\n').filter((l) => l.startsWith(`| \`reii ${lead}`) && /^\| `reii [a-z]+( [a-z]+)?[ `]/.test(l));
  const row = rows.find((l) => new RegExp(`^\\| \`reii ${lead}( |\`)`).test(l));
  if (!row) throw new Error(`README has no command row for reii ${lead}`);
  return row.split(' | ')[0]!;
}

const flags = (text: string): string[] => [...new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]!))].filter((f) => f !== 'help').sort();

const COMMANDS = ['build', 'check', 'start', 'serve', 'query', 'keys create', 'keys list', 'keys revoke', 'keys rotate', 'sources list', 'sources pull'];

describe('README command table', () => {
  test.each(COMMANDS)('reii %s: the row names every flag --help lists, and only those', async (words) => {
    const r = await reii([...words.split(' '), '--help'], env({ REII_ARTIFACTS: tmp(), REII_STATE: tmp() }));
    expect(r.code).toBe(0);
    const options = r.stdout.slice(r.stdout.indexOf('Options:'));
    const help = flags(options);
    expect(help.length).toBeGreaterThan(0);
    const row = rowOf(words);
    // keys revoke takes no --json; the shared row gives rotate's and list's
    const named = words === 'keys revoke' ? flags(row).filter((f) => f !== 'json') : flags(row);
    expect(named, `README row ${row}`).toEqual(help);
  });
});
