// `reii` subcommands given bad flags, folders that do not exist or cannot be written, and sources folders holding a
// malformed canonical CSV (written here, under the system's temporary folder, never in the repo): each must exit
// non-zero with the exit code README.md documents for it and a message naming the flag, folder or file and what is
// wrong, never a stack trace. The rejected rows a build names are counted from the files this test writes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { FIX, STACK_LINE, cleanupCli, env, reii, tmp, type Run } from '../helpers/cli.ts';
import { SOURCES } from '../../pipelines/sources/registry.ts';

afterAll(cleanupCli);
const RUN_MS = 180_000;
vi.setConfig({ testTimeout: 600_000 });

const USAGE = 2, STAGE = 3, NOT_FOUND = 6;
const base = (): NodeJS.ProcessEnv => env({ REII_ARTIFACTS: tmp('reii-h74-art-'), REII_STATE: tmp('reii-h74-state-'), REII_SOURCES: path.join(FIX, 'good') });

/** The exit code and a message on stderr matching `said`, with no stack frame anywhere. */
function expectRefused(r: Run, code: number, said: RegExp): void {
  const where = `exit ${r.code}; stderr: ${r.stderr.slice(0, 600)}`;
  expect(r.code, where).toBe(code);
  expect(r.stderr, where).toMatch(said);
  expect(r.stderr, 'a stack trace').not.toMatch(STACK_LINE);
  expect(r.stdout, 'a stack trace').not.toMatch(STACK_LINE);
  expect(r.stderr, where).not.toMatch(/^reii: unexpected error/m); // (the help's exit-code list names it too)
}

describe('bad flags and folders', () => {
  const CASES: [string, string[], number, RegExp][] = [
    ['an unknown flag', ['build', '--bogus'], USAGE, /unknown option '--bogus'/],
    ['an unknown command', ['nosuchcommand'], USAGE, /unknown command 'nosuchcommand'/],
    ['an unknown stage for --until', ['build', '--until', 'nope'], USAGE, /argument 'nope' is invalid/],
    ['an unknown stage for --only', ['build', '--only', 'nope'], USAGE, /unknown stage\(s\) nope/],
    ['a bad --log', ['check', '--log', 'xml'], USAGE, /argument 'xml' is invalid/],
    ['--keep not a number', ['build', '--keep', 'abc'], USAGE, /keepBuilds must be a whole number/],
    ['build with a missing --sources folder', ['build', '--sources', '/nonexistent/h74'], USAGE, /sources folder \/nonexistent\/h74 does not exist/],
    ['check with a missing --sources folder', ['check', '--sources', '/nonexistent/h74'], USAGE, /sources folder \/nonexistent\/h74 does not exist/],
    ['sources list with a missing --sources folder (it listed every source absent, exit 0)', ['sources', 'list', '--sources', '/nonexistent/h74'], USAGE, /sources folder \/nonexistent\/h74 does not exist/],
    ['sources pull of an unknown id (a failed download, exit 1)', ['sources', 'pull', '--into', '/nonexistent/h74', '--base-url', 'http://127.0.0.1:9', '--only', 'nope'], USAGE, new RegExp(`unknown source id\\(s\\) nope; open sources: ${SOURCES.filter((s) => s.open).map((s) => s.id).join(', ')}`)],
    ['sources pull with --concurrency abc', ['sources', 'pull', '--into', '/nonexistent/h74', '--concurrency', 'abc'], USAGE, /--concurrency must be a whole number/],
    ['sources pull with a base URL that is no URL', ['sources', 'pull', '--into', '/nonexistent/h74', '--base-url', 'notaurl'], USAGE, /--base-url must be an http\(s\) address/],
    ['serve with --port abc', ['serve', '--port', 'abc'], USAGE, /port must be a whole number from 0 to 65535, got "abc"/],
    ['serve with --port 99999', ['serve', '--port', '99999'], USAGE, /port must be a whole number from 0 to 65535, got "99999"/],
    ['serve with a missing --artifacts folder', ['serve', '--port', '0', '--artifacts', '/nonexistent/h74'], USAGE, /artifacts folder \/nonexistent\/h74 does not exist/],
    ['serve on a host that resolves to nothing (an unexpected ENOTFOUND, exit 1)', ['serve', '--port', '0', '--host', '999.1.1.1', '--artifacts', FIX], USAGE, /cannot listen on 999\.1\.1\.1 port 0: it names no address this machine can resolve/],
    ['serve with a state folder under a file (an unexpected ENOTDIR, exit 1)', ['serve', '--port', '0', '--artifacts', FIX, '--state', '/dev/null/h74'], USAGE, /state folder \/dev\/null\/h74 cannot be used \(ENOTDIR/],
    ['keys create with a state folder under a file', ['keys', 'create', '--plan', 'pro', '--state', '/dev/null/h74'], USAGE, /state folder \/dev\/null\/h74 cannot be used \(ENOTDIR/],
    ['keys create with an unknown plan', ['keys', 'create', '--plan', 'nope'], USAGE, /unknown plan "nope"; plans are starter, builder, pro, scale, enterprise/],
    ['keys create with --rpm -5', ['keys', 'create', '--plan', 'pro', '--rpm', '-5'], USAGE, /--rpm must be a whole number of at least 1/],
    ['keys revoke without an id', ['keys', 'revoke'], USAGE, /missing required argument 'id'/],
    ['keys revoke of an unknown id', ['keys', 'revoke', 'nosuchkey'], NOT_FOUND, /no key with id nosuchkey/],
    ['build into an artifacts folder under a file (an unexpected ENOTDIR, exit 1)', ['build', '--artifacts', '/dev/null/h74'], USAGE, /artifacts folder \/dev\/null\/h74 cannot be used \(ENOTDIR/],
    ['query with no SQL (answered "(no rows)", exit 0)', ['query', '  '], USAGE, /no SQL given/],
    ['query with no build', ['query', 'select 1', '--artifacts', '/nonexistent/h74'], NOT_FOUND, /no published build in \/nonexistent\/h74/],
  ];
  test.each(CASES)('%s', async (_, args, code, said) => {
    expectRefused(await reii(args, base(), RUN_MS), code, said);
  });
});

describe('a sources folder with a malformed canonical CSV: exit 3 naming the file and the fault, nothing published', () => {
  const HEADER = 'address,city,state,zip,sale_date,sale_price,property_type,beds,baths,sqft,year_built,condition,lat,lng';
  const GOOD = fs.readFileSync(path.join(FIX, 'good', 'canonical', 'sales.csv'), 'utf8').trimEnd().split('\n').slice(1);
  const FILES: [string, Buffer, RegExp][] = [
    ['an unclosed quote', Buffer.from(`${HEADER}\n${GOOD[0]}\n"${GOOD[1]}\n`), new RegExp(`(\\d+)% of its rows were rejected \\(1 of 2\\).*unclosed_quote 1`)],
    ['a date and numbers that are none', Buffer.from(`${HEADER}\n12 ELM ST,AUSTIN,TX,78701,not-a-date,abc,sfr,x,y,z,1988,good,30.27,-97.74\n`), /rows were rejected \(1 of 1\).*not_a_date \(sale_date\) 1 \(e\.g\. "not-a-date"; dates are YYYY-MM-DD\)/],
    ['rows with too few and too many columns', Buffer.from(`${HEADER}\n12 ELM ST,AUSTIN,TX\n${GOOD[0]},extra\n`), /rows were rejected \(2 of 2\).*wrong_column_count 2/],
    ['an empty file', Buffer.alloc(0), /the file is empty \(0 bytes\)/],
    ['bytes that are no text', Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x50, 0x4b, 0x03, 0x04, 0x0a, 0x00]), /the file has NUL bytes/],
  ];
  test.each(FILES)('%s', async (_, bytes, said) => {
    const sources = tmp('reii-h74-src-');
    fs.mkdirSync(path.join(sources, 'canonical'));
    fs.writeFileSync(path.join(sources, 'canonical', 'sales.csv'), bytes);
    const e = base();
    const r = await reii(['build', '--sources', sources], e, RUN_MS);
    expectRefused(r, STAGE, /stage \w+ failed in canonical\/sales\.csv: /);
    expect(r.stderr).toMatch(said);
    expect(fs.existsSync(path.join(e['REII_ARTIFACTS']!, 'current')), 'published').toBe(false);
  });
});
