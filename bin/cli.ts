// `reii`: the command-line entry point. The only file that exits; every error reaches the one catch below.
import fs from 'node:fs';
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { loadSettings, type Settings } from '../warehouse/settings.ts';
import { CliError, EXIT } from '../warehouse/errors.ts';
import { createLogger } from '../warehouse/log.ts';
import { parseStages, STAGE_NAMES, type StageName } from '../pipelines/stage-names.ts';
import { currentBuildDir } from '../warehouse/build-folder.ts';
import { formatCsv, formatTable } from './cli-format.ts';
import { queryBuildDir } from './cli-query.ts';
import { folderError, listenError, requireSources, requireSourceIds, requireSql } from './cli-checks.ts';

const program = new Command()
  .name('reii')
  .description('Real Estate Investor Intelligence Service: nightly build of public property data, and the API that serves it')
  .option('--debug', 'print stack traces of unexpected errors')
  // Commander's own usage errors (unknown command or flag, missing option, bad choice) are thrown to the catch
  // below instead of exiting 1 inside commander, so they exit 2 like every other usage error. Subcommands
  // inherit this setting because it is made before they are added.
  .exitOverride()
  .showHelpAfterError()
  .addHelpText('after', `
Exit codes: 0 ok, 1 unexpected error, 2 bad usage or settings, 3 a build stage failed,
4 data checks failed (build kept, not published), 5 another build holds the lock, 6 nothing to act on.`);

program.command('build')
  .description('build the warehouse and shards from the sources, then publish it as current when every check passes')
  .option('--sources <dir>', 'raw source folders (default $REII_SOURCES, else ../shared/data)')
  .option('--artifacts <dir>', 'artifacts folder (default ./artifacts)')
  .option('--only <stage...>', `re-run from the earliest of these stages through shards, starting from the current build's warehouse (${STAGE_NAMES.join(', ')})`)
  .addOption(new Option('--until <stage>', 'stop after this stage and keep the build as builds/<id>.partial, never published (measuring, debugging SQL)').choices([...STAGE_NAMES]))
  .addOption(new Option('--log <format>', 'log format').choices(['human', 'json']))
  .option('--keep <n>', 'published builds to keep (default 3)')
  .option('--json', 'print the outcome as one JSON object (build_id, published, dir, report, shards, rejected_rows)')
  .action(async (o: { sources?: string; artifacts?: string; only?: string[]; until?: StageName; log?: string; keep?: string; json?: boolean }) => {
    const settings = loadSettings({ sources: o.sources, artifacts: o.artifacts, logFormat: o.log, keepBuilds: o.keep });
    await build(settings, o.only, o.until, o.json === true);
  });

program.command('check')
  .description('run the sources, contracts, marts and data tests over a sources folder without publishing: a verdict before the nightly build')
  .option('--sources <dir>', 'raw source folders (default $REII_SOURCES, else ../shared/data)')
  .option('--artifacts <dir>', 'artifacts folder whose current build the drift tests compare against (default ./artifacts)')
  .addOption(new Option('--log <format>', 'log format').choices(['human', 'json']))
  .option('--json', 'print the checks and the verdict as one JSON object')
  .action(async (o: { sources?: string; artifacts?: string; log?: string; json?: boolean }) => {
    await check(loadSettings({ sources: o.sources, artifacts: o.artifacts, logFormat: o.log }), o.json === true);
  });

program.command('start')
  .description('build when there is no current build, then serve (what `npm start` runs)')
  .option('--port <n>', 'port (default $PORT or 8080)')
  .option('--host <h>', 'address to bind (default 127.0.0.1)')
  .action(async (o: { port?: string; host?: string }) => {
    const settings = loadSettings({ port: o.port, host: o.host });
    if (!currentBuildDir(settings.artifacts)) await build(settings);
    await serve(settings);
  });

program.command('serve')
  .description('serve the current build over HTTP')
  .option('--port <n>', 'port (default $PORT or 8080)')
  .option('--host <h>', 'address to bind (default 127.0.0.1)')
  .option('--artifacts <dir>', 'artifacts folder (default ./artifacts)')
  .option('--state <dir>', 'key and usage state folder (default ./var)')
  .action(async (o: { port?: string; host?: string; artifacts?: string; state?: string }) => {
    const settings = loadSettings({ port: o.port, host: o.host, artifacts: o.artifacts, state: o.state });
    // An artifacts folder that does not exist is a typo, not an empty service (an existing empty one serves 503
    // until a build is published into it).
    if (!fs.existsSync(settings.artifacts)) throw new CliError(`artifacts folder ${settings.artifacts} does not exist (set --artifacts or REII_ARTIFACTS)`, { exitCode: EXIT.usage });
    await serve(settings);
  });

const keys = program.command('keys').description('API keys: create, list, revoke, rotate (stored only as hashes)');
const stateOpt = (): Option => new Option('--state <dir>', 'key and usage state folder (default ./var)');
/** The key registry: Redis when REII_REDIS_URL is set (shared by every instance), else <state>/state.db. */
async function keyRegistry(stateFlag?: string) {
  const settings = loadSettings({ state: stateFlag });
  if (settings.redisUrl) {
    const { RedisKeys } = await import('../api/redis-keys.ts');
    const { RedisLimits } = await import('../api/redis-limits.ts');
    const reg = new RedisKeys(settings.redisUrl);
    const limits = new RedisLimits(settings.redisUrl);
    return { reg, limits, close: async () => { reg.close(); await limits.close(); } };
  }
  const { KeyStore } = await import('../api/keys.ts');
  const { MemoryLimits } = await import('../api/limits.ts');
  let reg, limits;
  try { reg = new KeyStore(settings.state); limits = new MemoryLimits(settings.state); } catch (err) { throw folderError(err, settings.state, 'state'); }
  return { reg, limits, close: async () => { reg.close(); await limits.close(); } };
}

keys.command('create')
  .description('create a key; prints it once, alone on the last line')
  .requiredOption('--plan <plan>', 'starter, builder, pro, scale or enterprise')
  .option('--name <label>', 'a label for the key')
  .option('--rpm <n>', 'requests per minute (overrides the plan; enterprise keys are unlimited without it)')
  .addOption(stateOpt())
  .option('--json', 'print {id, plan, name, rpm, key} as JSON')
  .action(async (o: { plan: string; name?: string; rpm?: string; state?: string; json?: boolean }) => {
    const rpm = o.rpm === undefined ? null : Number(o.rpm);
    if (rpm !== null && (!Number.isInteger(rpm) || rpm < 1)) throw new CliError('--rpm must be a whole number of at least 1', { exitCode: EXIT.usage });
    const r = await keyRegistry(o.state);
    try {
      const { record, key } = await r.reg.create({ plan: o.plan, name: o.name ?? null, rpm });
      if (o.json) return printJson({ id: record.id, plan: record.plan, name: record.name ?? null, rpm: record.rpm ?? null, key });
      process.stdout.write(`created key ${record.id} (plan ${record.plan}${record.rpm ? `, ${record.rpm}/min` : ''}); it is shown once:\n${key}\n`);
    } finally { await r.close(); }
  });
keys.command('list')
  .description('list keys: id, name, plan, created, last used, usage this month (never the key)')
  .addOption(stateOpt())
  .option('--json', 'JSON output')
  .action(async (o: { state?: string; json?: boolean }) => {
    const r = await keyRegistry(o.state);
    try {
      const now = Date.now();
      const rows = [];
      for (const k of await r.reg.list()) {
        rows.push({
          id: k.id, name: k.name ?? '', plan: k.plan, rpm: k.rpm ?? '', status: k.revoked_at ? 'revoked' : 'active',
          created: k.created_at, last_used: (await r.limits.lastUsed(k.id)) ?? '', usage_this_month: await r.limits.monthCount(k.id, now),
        });
      }
      if (o.json) printJson(rows); else process.stdout.write(formatTable(rows));
    } finally { await r.close(); }
  });
keys.command('revoke <id>')
  .description('revoke a key: a running server refuses it within a second')
  .addOption(stateOpt())
  .action(async (id: string, o: { state?: string }) => {
    const r = await keyRegistry(o.state);
    try {
      await r.reg.revoke(id);
      process.stdout.write(`revoked ${id}\n`);
    } finally { await r.close(); }
  });
keys.command('rotate <id>')
  .description('issue a new key with the same plan, name and limit, and revoke the old one')
  .addOption(stateOpt())
  .option('--json', 'print {revoked, id, plan, key} as JSON')
  .action(async (id: string, o: { state?: string; json?: boolean }) => {
    const r = await keyRegistry(o.state);
    try {
      const { record, key } = await r.reg.rotate(id);
      if (o.json) return printJson({ revoked: id, id: record.id, plan: record.plan, key });
      process.stdout.write(`rotated ${id} -> ${record.id}; the new key is shown once:\n${key}\n`);
    } finally { await r.close(); }
  });

const sources = program.command('sources').description('the raw sources: what is present, and pulling the open-data ones');
sources.command('list')
  .description('each source: present or absent, files, rows, vintage, licence and attribution')
  .option('--sources <dir>', 'raw source folders (default $REII_SOURCES, else ../shared/data)')
  .option('--json', 'JSON output')
  .action(async (o: { sources?: string; json?: boolean }) => {
    const { listSources } = await import('../pipelines/sources/list.ts');
    const dir = loadSettings({ sources: o.sources }).sources;
    requireSources(dir);
    const rows = await listSources(dir);
    if (o.json) printJson(rows); else process.stdout.write(formatTable(rows.map((r) => ({
      source: r.id, status: r.misnamed.length ? 'misnamed' : r.present ? 'present' : 'absent', files: r.files, rows: r.rows ?? '', vintage: r.vintage, licence: r.licence, attribution: r.attribution ?? '',
    }))));
    for (const m of rows.flatMap((r) => r.misnamed)) process.stderr.write(`reii: ${m.file} ${m.message}; \`reii build\` fails on it\n`);
  });
sources.command('pull')
  .description('download the open-data sources from their official addresses into a sources folder')
  .requiredOption('--into <dir>', 'sources folder to fill')
  .option('--base-url <url>', 'fetch from this mirror instead of the official addresses (tests use a loopback server)')
  .option('--concurrency <n>', 'parallel downloads', '4')
  .option('--only <id...>', 'only these source ids')
  .option('--json', 'JSON output')
  .action(async (o: { into: string; baseUrl?: string; concurrency: string; only?: string[]; json?: boolean }) => {
    await requireSourceIds(o.only);
    const { pullSources } = await import('../pipelines/sources/pull.ts');
    const log = createLogger(loadSettings().logFormat);
    const report = await pullSources({ into: path.resolve(o.into), baseUrl: o.baseUrl, concurrency: Number(o.concurrency), only: o.only, log });
    if (o.json) printJson(report); else process.stdout.write(formatTable(report.map((r) => ({ ...r }))));
    if (report.some((r) => r.status === 'failed')) throw new CliError('some downloads failed (see the table)', { exitCode: EXIT.failed });
  });

program.command('query <sql>')
  .description('run read-only SQL against the current build\'s warehouse (or, with --build, any kept build\'s: a failed one too)')
  .option('--artifacts <dir>', 'artifacts folder (default ./artifacts)')
  .option('--build <id>', 'query this build instead of the current one: a published, failed (<id>.failed) or partial build in <artifacts>/builds')
  .addOption(new Option('--format <f>', 'output format').choices(['table', 'csv', 'json']).default('table'))
  .action(async (sql: string, o: { artifacts?: string; build?: string; format: 'table' | 'csv' | 'json' }) => {
    requireSql(sql);
    const { runQuery } = await import('../warehouse/query.ts');
    const settings = loadSettings({ artifacts: o.artifacts });
    const rows = await runQuery(path.join(queryBuildDir(settings.artifacts, o.build), 'warehouse.duckdb'), sql);
    if (o.format === 'json') printJson(rows);
    else if (o.format === 'csv') process.stdout.write(formatCsv(rows));
    else process.stdout.write(formatTable(rows));
  });

async function build(settings: Readonly<Settings>, only?: string[], until?: StageName, json = false): Promise<void> {
  const { runBuild } = await import('../pipelines/build.ts');
  let stages;
  try {
    stages = only ? parseStages(only) : undefined;
  } catch (err) {
    throw new CliError((err as Error).message, { exitCode: EXIT.usage });
  }
  const log = createLogger(settings.logFormat);
  const result = await runBuild({ settings, log, only: stages, until }).catch((err: unknown) => { throw folderError(err, settings.artifacts, 'artifacts'); });
  const report = path.join(result.dir, 'report.html');
  if (json) return printJson({ build_id: result.buildId, published: result.published, dir: result.dir, report, shards: result.manifest.shards.total, rejected_rows: result.manifest.rejects.total });
  if (!result.published) return void process.stdout.write(`stopped after ${until}: build kept in ${result.dir} (not published)\nreport: ${report}\n`);
  const own = result.manifest.rejects.by_source.filter((r) => r.source === 'canonical').reduce((n, r) => n + r.rows, 0); // the operator's files
  process.stdout.write(`published build ${result.buildId} (${result.manifest.shards.total} shards, ${result.manifest.rejects.total} rejected rows${own ? `, ${own} of them in canonical/` : ''})\nreport: ${path.join(result.dir, 'report.html')}\n`);
}

/**
 * `reii check`: the build through the marts and their data tests (`--until marts`), never published. Prints every
 * check as a table on stdout (manifest.json has them for tools). What stays behind is builds/<id>.partial with only
 * manifest.json and report.html (the failing rows): its warehouse is deleted, and prune removes the folder after the
 * next publish like any partial build. A stage that fails leaves <id>.failed as `reii build` does. Exit 0 all pass
 * (warnings allowed), 4 a check failed, 3 a stage failed.
 */
async function check(settings: Readonly<Settings>, json = false): Promise<void> {
  const { runBuild } = await import('../pipelines/build.ts');
  const builds = path.join(settings.artifacts, 'builds');
  const listing = (): string[] => (fs.existsSync(builds) ? fs.readdirSync(builds) : []);
  const before = new Set(listing());
  let failure: CliError | null = null;
  let dir: string | null = null;
  try {
    dir = (await runBuild({ settings, log: createLogger(settings.logFormat), until: 'marts' })).dir;
  } catch (err) {
    if (!(err instanceof CliError) || err.exitCode !== EXIT.checks) throw folderError(err, settings.artifacts, 'artifacts');
    failure = err;
    // The build held the artifacts lock from before its folder was made until it was renamed: the one new
    // <id>.partial is this run's.
    const made = listing().filter((n) => !before.has(n) && n.endsWith('.partial'));
    dir = made.length === 1 ? path.join(builds, made[0]!) : null;
  }
  if (!dir) throw failure ?? new CliError('the check left no build folder to read', { exitCode: EXIT.failed });
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { checks: { name: string; description: string; severity?: string; status: string; failing_rows: number; seconds?: number; reason?: string | null }[] };
  // The scratch warehouse is not kept: the report holds the verdict and a sample of every failing check's rows.
  for (const f of ['warehouse.duckdb', 'warehouse.duckdb.wal', '.duckdb-tmp']) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
  const order = ['fail', 'warn', 'skipped', 'pass'];
  const rows = [...manifest.checks].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status) || a.name.localeCompare(b.name));
  const table = rows.map((c) => ({
    check: c.name, severity: c.severity ?? '', status: c.status, failing_rows: c.failing_rows, note: c.status === 'skipped' ? (c.reason ?? 'a table is missing') : c.description,
  }));
  if (json) printJson({ passed: failure === null, report: path.join(dir, 'report.html'), checks: table });
  else process.stdout.write(formatTable(table));
  const count = (s: string): number => manifest.checks.filter((c) => c.status === s).length;
  const report = path.join(dir, 'report.html');
  if (failure) {
    const failed = manifest.checks.filter((c) => c.status === 'fail').map((c) => c.name);
    throw new CliError(`data checks failed (${failed.join(', ')}); failing rows in ${report}; nothing published`, { exitCode: EXIT.checks });
  }
  if (!json) process.stdout.write(`all checks passed: ${count('pass')} passed, ${count('warn')} warnings, ${count('skipped')} skipped; nothing published\nreport: ${report}\n`);
}

/** Output a script reads: one JSON document on stdout. */
function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

async function serve(settings: Readonly<Settings>): Promise<void> {
  const { startServer } = await import('../api/server.ts');
  let server;
  try {
    server = await startServer({ settings });
  } catch (err) {
    throw folderError(listenError(err, settings), settings.state, 'state');
  }
  const stop = (sig: string): void => {
    process.stderr.write(`${sig}: draining\n`);
    void server.close().then(() => process.exit(0));
  };
  // before the line that says it serves: a signal sent as soon as that line is read drains too (it killed the process)
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.stderr.write(`reii serving ${server.url} (build ${server.buildId() ?? 'none'})\n`);
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const debug = program.opts<{ debug?: boolean }>().debug === true;
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K'); // a progress bar left by the failed step
  if (err instanceof CommanderError) {
    // Commander has printed its message (or the help); --help and --version are not errors.
    process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (err instanceof CliError) {
    process.stderr.write(`reii: ${err.message}\n`);
    if (debug && err.cause instanceof Error) process.stderr.write(`${err.cause.stack}\n`);
    process.exitCode = err.exitCode;
  } else {
    process.stderr.write(`reii: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.stderr.write(debug && err instanceof Error ? `${err.stack}\n` : 'run again with --debug for the stack trace\n');
    process.exitCode = EXIT.failed;
  }
}
