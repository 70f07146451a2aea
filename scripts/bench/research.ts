// Research part: POST /v1/research/query answers over the bench build, in-process (the engine alone, every
// question of test/live/research/questions.json, quick and deep, after a warm-up pass) and over HTTP (the real server
// in a child process, autocannon with a rotating question body). Goals: quick p99 < 50 ms, deep p99 < 250 ms.
import fs from 'node:fs';
import path from 'node:path';
import type { BenchContext, BenchRow } from '../bench.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { ResearchData } from '../../live/research/data.ts';
import { ShardStore } from '../../api/shards.ts';
import { ResearchEngine, type ResearchInput } from '../../live/research/endpoint.ts';
import { load, startReal } from './serve.ts';

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = currentBuildDir(ctx.artifacts);
  if (!dir) return [{ part: 'research', metric: 'skipped', value: 'no build: run the build part first', unit: '' }];
  const loadStart = performance.now();
  // the server's shard store (64 MiB cache, the default REII_SHARD_CACHE_MB), as the endpoint reads shards in the server
  const data = ResearchData.fromBuild(dir, new ShardStore(path.join(dir, 'shards'), 64 * 1024 * 1024));
  if (!data) return [{ part: 'research', metric: 'skipped', value: 'the build has no live/research index', unit: '' }];
  const loadMs = performance.now() - loadStart;
  const engine = new ResearchEngine(data, null);
  const set = JSON.parse(fs.readFileSync(path.join(ctx.repo, 'test', 'live', 'research', 'questions.json'), 'utf8')) as { questions: ResearchInput[]; unanswerable: ResearchInput[] };
  const questions = [...set.questions, ...set.unanswerable].map((q) => ({ query: q.query, context: q.context }));

  const rows: BenchRow[] = [{ part: 'research', metric: 'index load (live/research)', value: loadMs, unit: 'ms' }];
  const rounds = 5;
  for (const depth of ['quick', 'deep'] as const) {
    for (const q of questions) await engine.answer({ ...q, depth }); // warm-up: JIT and the shard cache
    const times: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const q of questions) {
        const t = performance.now();
        await engine.answer({ ...q, depth });
        times.push(performance.now() - t);
      }
    }
    times.sort((a, b) => a - b);
    const goal = depth === 'quick' ? 50 : 250;
    rows.push(
      { part: 'research', metric: `in-process ${depth} p50 (${questions.length} questions x ${rounds})`, value: pct(times, 50), unit: 'ms' },
      { part: 'research', metric: `in-process ${depth} p99`, value: pct(times, 99), unit: 'ms', goal: `< ${goal} ms`, pass: pct(times, 99) < goal },
    );
    ctx.log(`research ${depth}: p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms`);
  }

  // over HTTP: the real server, 10 connections, a fixed mix of questions
  const real = await startReal(ctx.repo, ctx.artifacts);
  try {
    const headers = { 'X-Service-Key': real.key, 'Content-Type': 'application/json' };
    // warm-up (JIT, the first module load): not measured
    await load(`${real.url}/v1/research/query`, { method: 'POST', body: JSON.stringify({ query: 'eviction notice in Texas' }), connections: 4, duration: 2, headers });
    for (const depth of ['quick', 'deep'] as const) {
      const body = JSON.stringify({ query: 'Compare eviction notice periods in Texas and California', depth });
      const r = await load(`${real.url}/v1/research/query`, {
        method: 'POST', body, connections: 10, duration: 5, headers,
      });
      const goal = depth === 'quick' ? 50 : 250;
      rows.push(
        { part: 'research', metric: `HTTP ${depth} req/s (10 connections)`, value: r.rps, unit: 'req/s' },
        { part: 'research', metric: `HTTP ${depth} p50`, value: r.p50, unit: 'ms' },
        { part: 'research', metric: `HTTP ${depth} p99`, value: r.p99, unit: 'ms', goal: `< ${goal} ms`, pass: r.p99 < goal },
        { part: 'research', metric: `HTTP ${depth} non-2xx / errors`, value: r.non2xx + r.errors, unit: 'requests', goal: '0', pass: r.non2xx + r.errors === 0 },
      );
    }
  } finally {
    await real.stop();
  }
  return rows;
}
