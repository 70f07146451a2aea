// API part: a shard endpoint (/v1/geo/lookup) through the full server (key check, limits, ETag,
// access log) next to a bare node:http server sending the same bytes (body and headers), 50 connections each;
// then the same endpoint with keys and limits in Redis (REII_REDIS_URL, a redis-server of the bench's own)
// against the same bare server, with the Redis script calls (round trips) per request.
// Each server gets a short warm-up first (JIT, caches); the servers then take turns under load. Each side's CPU time
// per answer (from /proc) is reported too: on a shared machine it moves far less than req/s.
// Where taskset exists and there are 2 CPUs or more, every server runs on one CPU and the load generator (autocannon,
// in this process) on another, both sides alike: unpinned, a server and the load generator fight over the same cores,
// so a turn measured the scheduler as much as the server (paired ratios of one run ranged 0.58-1.37).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { shardPath } from '../../warehouse/layout.ts';
import { load, responseHeaders, rssMb, startBare, startReal, startRedisServer } from './serve.ts';

const WARM_UP_S = 2;

/** Several short runs of each server, taken in turns (bare, real, bare, real, ...): a burst of load from another
 *  process on this shared machine falls on both sides instead of on one. req/s is the mean of the turns,
 *  p50/p99 the median of the turns' figures; `perTurn` keeps each turn's req/s for the paired ratio. */
const TURNS = 5;
const TURN_S = 4;
interface Turns { rps: number; p50: number; p99: number; bad: number; total: number; spread: string; perTurn: number[]; cpuUs: number | null }

/** The median over the turns of real / bare, each real turn against the bare turn run just before it: a burst that
 *  falls on one turn moves one ratio of five, where it moves a mean of the turns by its whole size. */
function pairedRatio(real: Turns, bare: Turns): number {
  const ratios = real.perTurn.map((r, t) => r / bare.perTurn[t]!).sort((a, b) => a - b);
  return ratios[Math.floor(ratios.length / 2)]!;
}
/** CPU time (user + system, every thread) a process has used so far, in microseconds; null where /proc is missing. */
function cpuUsOf(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1e6 / CLOCK_TICKS);
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100; // USER_HZ of Linux /proc times

async function inTurns(sides: { url: string; headers?: Record<string, string>; pid: number }[]): Promise<Turns[]> {
  const runs: Awaited<ReturnType<typeof load>>[][] = sides.map(() => []);
  // The server's CPU time per answer, summed over the turns: what the server spends, which a busy machine
  // disturbs far less than req/s (that also measures who else had the CPU).
  const cpu = sides.map(() => ({ us: 0, answers: 0, known: true }));
  for (let t = 0; t < TURNS; t++) {
    for (const [i, side] of sides.entries()) {
      const before = cpuUsOf(side.pid);
      const run = await load(side.url, { headers: side.headers, duration: TURN_S });
      const after = cpuUsOf(side.pid);
      if (before === null || after === null) cpu[i]!.known = false;
      else { cpu[i]!.us += after - before; cpu[i]!.answers += run.total; }
      runs[i]!.push(run);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return runs.map((r, i) => ({
    rps: r.reduce((n, x) => n + x.rps, 0) / r.length,
    p50: median(r.map((x) => x.p50)),
    p99: median(r.map((x) => x.p99)),
    bad: r.reduce((n, x) => n + x.non2xx + x.errors, 0),
    total: r.reduce((n, x) => n + x.total, 0),
    spread: r.map((x) => Math.round(x.rps)).join(' / '),
    perTurn: r.map((x) => x.rps),
    cpuUs: cpu[i]!.known && cpu[i]!.answers > 0 ? cpu[i]!.us / cpu[i]!.answers : null,
  }));
}

/** Pins a process, every thread of it, to `cpus` (taskset's list form). */
function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

/** Pins the servers to this process's first CPU and this process (the load generator) to its second: the reason
 *  when it cannot, else null, and the undo (the bench's later parts run in this process, on all its CPUs again). */
function pinSides(serverPids: number[]): { why: string | null; cpus: [string, string]; undo(): void } {
  let allowed: string;
  try {
    allowed = /list: (\S+)/.exec(execFileSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' }))?.[1] ?? '';
  } catch (err) {
    return { why: `no taskset (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, cpus: ['', ''], undo: () => {} };
  }
  const list = allowed.split(',').flatMap((r) => { const [a, b = a] = r.split('-').map(Number); return Array.from({ length: b! - a! + 1 }, (_, i) => String(a! + i)); });
  if (list.length < 2) return { why: `one CPU (${allowed || 'none'})`, cpus: ['', ''], undo: () => {} };
  const cpus: [string, string] = [list[0]!, list[1]!];
  try {
    for (const pid of serverPids) pin(pid, cpus[0]);
    pin(process.pid, cpus[1]);
  } catch (err) {
    for (const pid of [...serverPids, process.pid]) { try { pin(pid, allowed); } catch { /* gone */ } } // both sides alike again
    return { why: `taskset failed (${(err as Error).message.split('\n')[0]})`, cpus: ['', ''], undo: () => {} };
  }
  return { why: null, cpus, undo: () => pin(process.pid, allowed) };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = currentBuildDir(ctx.artifacts);
  if (!dir) return [{ part: 'api', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const sp = shardPath('geo-lookup', { state: 'WA', city: 'Seattle' });
  if (!sp.ok) throw new Error(sp.reason);
  const real = await startReal(ctx.repo, ctx.artifacts);
  const target = `${real.url}/v1/geo/lookup?city=Seattle&state=WA`;
  const headers = { 'X-Service-Key': real.key };
  // The baseline sends the very bytes the real server sends: the same body and the same headers.
  const bare = await startBare(path.join(dir, 'shards', sp.path), await responseHeaders(target, headers));
  const pinned = pinSides([real.pid, bare.pid]);
  try {
    return await measure(ctx, real, bare, target, headers, pinned);
  } finally {
    pinned.undo();
  }
}

async function measure(ctx: BenchContext, real: Awaited<ReturnType<typeof startReal>>, bare: Awaited<ReturnType<typeof startBare>>, target: string, headers: Record<string, string>, pinned: ReturnType<typeof pinSides>): Promise<BenchRow[]> {
  await load(`${bare.url}/`, { duration: WARM_UP_S });
  await load(target, { headers, duration: WARM_UP_S });
  const rssStart = rssMb(real.pid);
  const [bareRun, realRun] = await inTurns([{ url: `${bare.url}/`, pid: bare.pid }, { url: target, headers, pid: real.pid }]);
  const rssEnd = rssMb(real.pid);
  await real.stop();
  const redisRowsMade = await redisRows(ctx, { url: `${bare.url}/`, pid: bare.pid }, pinned.why ? null : pinned.cpus[0]).finally(() => bare.stop());
  const ratio = pairedRatio(realRun!, bareRun!);
  const p99Ratio = realRun!.p99 / Math.max(1, bareRun!.p99);
  return [
    { part: 'api', metric: 'CPUs', value: pinned.why ? `not pinned: ${pinned.why}` : `servers on CPU ${pinned.cpus[0]}, load generator on CPU ${pinned.cpus[1]}`, unit: '' },
    { part: 'api', metric: 'bare node:http req/s (same body and headers)', value: bareRun!.rps, unit: 'req/s' },
    // ratio: the median of the turns' real / bare (pairedRatio); value and baseline are the turns' means
    { part: 'api', metric: 'GET /v1/geo/lookup req/s', value: realRun!.rps, unit: 'req/s', baseline: bareRun!.rps, ratio, goal: '>= 0.85 of bare (median of turns)', pass: ratio >= 0.85 },
    { part: 'api', metric: 'GET /v1/geo/lookup req/s, mean of turns / mean of turns', value: realRun!.rps / bareRun!.rps, unit: 'ratio' },
    { part: 'api', metric: `turns (req/s): real | bare`, value: `${realRun!.spread} | ${bareRun!.spread}`, unit: '' },
    { part: 'api', metric: 'server CPU per answer (user + system)', value: realRun!.cpuUs ?? 'unknown: no /proc', unit: 'us', baseline: bareRun!.cpuUs, ratio: realRun!.cpuUs && bareRun!.cpuUs ? bareRun!.cpuUs / realRun!.cpuUs : null },
    { part: 'api', metric: 'GET /v1/geo/lookup p50', value: realRun!.p50, unit: 'ms', baseline: bareRun!.p50 },
    { part: 'api', metric: 'GET /v1/geo/lookup p99', value: realRun!.p99, unit: 'ms', baseline: bareRun!.p99, ratio: p99Ratio, goal: '<= 1.5x bare', pass: p99Ratio <= 1.5 },
    { part: 'api', metric: 'non-2xx / errors under load', value: realRun!.bad, unit: 'requests', goal: '0', pass: realRun!.bad === 0 },
    { part: 'api', metric: 'server RSS (start -> after load)', value: rssEnd, unit: 'MB', baseline: rssStart, goal: '< 300 MB', pass: rssEnd < 300 },
    ...redisRowsMade,
  ];
}

/** The same endpoint with keys, windows and monthly counts in Redis: req/s against the same bare server (in
 *  turns again), and the script calls (one Redis round trip each) per request. A machine without redis-server
 *  gets a row saying so. */
async function redisRows(ctx: BenchContext, bareSide: { url: string; pid: number }, serverCpu: string | null): Promise<BenchRow[]> {
  const redis = await startRedisServer();
  if (typeof redis === 'string') return [{ part: 'api', metric: 'Redis mode', value: `skipped: ${redis}`, unit: '' }];
  try {
    const real = await startReal(ctx.repo, ctx.artifacts, { REII_REDIS_URL: redis.url });
    if (serverCpu !== null) pin(real.pid, serverCpu); // as in the first comparison (redis-server, a service of its own, is left to the scheduler)
    try {
      const target = `${real.url}/v1/geo/lookup?city=Seattle&state=WA`;
      const headers = { 'X-Service-Key': real.key };
      await load(target, { headers, duration: WARM_UP_S });
      const before = await redis.scriptCalls();
      const [bareRun, run] = await inTurns([bareSide, { url: target, headers, pid: real.pid }]);
      const perRequest = ((await redis.scriptCalls()) - before) / Math.max(1, run!.total);
      const ratio = pairedRatio(run!, bareRun!);
      return [
        { part: 'api', metric: 'Redis mode GET /v1/geo/lookup req/s', value: run!.rps, unit: 'req/s', baseline: bareRun!.rps, ratio, goal: '>= 0.6 of bare (median of turns)', pass: ratio >= 0.6 },
        { part: 'api', metric: `Redis mode turns (req/s): real | bare`, value: `${run!.spread} | ${bareRun!.spread}`, unit: '' },
        { part: 'api', metric: 'Redis mode server CPU per answer (user + system)', value: run!.cpuUs ?? 'unknown: no /proc', unit: 'us', baseline: bareRun!.cpuUs, ratio: run!.cpuUs && bareRun!.cpuUs ? bareRun!.cpuUs / run!.cpuUs : null },
        { part: 'api', metric: 'Redis mode p99', value: run!.p99, unit: 'ms', baseline: bareRun!.p99 },
        // One script call per request; a call whose answer timed out (250 ms) is replayed once, and the counts
        // made while it waits go in one batched call: a busy machine adds a few per thousand.
        { part: 'api', metric: 'Redis mode round trips (script calls) per request', value: perRequest, unit: 'calls', goal: '<= 1.01 (1 + timeout replays)', pass: perRequest <= 1.01 },
        { part: 'api', metric: 'Redis mode non-2xx / errors under load', value: run!.bad, unit: 'requests', goal: '0', pass: run!.bad === 0 },
      ];
    } finally {
      await real.stop();
    }
  } finally {
    await redis.stop();
  }
}
