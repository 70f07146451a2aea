// The valuation step's CPU work (live/valuation/build.ts), split into tasks that run on worker threads
// (fit-worker.ts) or in this thread: per source, its models (fitModel: the live params on every comp, the back-test's
// on the sales before each slice), its back-test given them (predictions, blend and recency) and, where the blend gives
// the stacked estimate a share, the live stacked trees under the recency the back-test chose. Pure: a task's result
// depends on its comps only, so the step's files are byte-identical whichever thread ran it.
// warehouse/docs/valuation.md "Build time".
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Blend, ModelParams } from './types.ts';
import { CompIndex, type CompSetData } from './comps.ts';
import { fitModel, fitStacked } from './fit.ts';
import { asOf, backtest, backtestFitDays, tuned, type Kernel, type Prediction } from './backtest.ts';

/** One model of a source fitted on its sales before `day` (Infinity: every comp, the live params), a source's
 *  back-test given its models (backtestFitDays), or its live params given the back-test's choices (the stacked trees
 *  fitted when `blend` gives them a share). */
export type FitTask = { kind: 'fit'; set: CompSetData; day: number } | { kind: 'backtest'; set: CompSetData; fitted: [number, ModelParams][] }
  | { kind: 'stacked'; set: CompSetData; params: ModelParams; blend: Blend; recency: number; distance: number; kernel: Kernel };
/** What build.ts reads of a back-test. */
export interface BacktestPart { blend: Blend; recency: number; distance: number; kernel: Kernel; testStart: number; predictions: Prediction[] }
export type FitResult = { kind: 'fit'; params: ModelParams } | ({ kind: 'backtest' } & BacktestPart);
export interface SourceFit { params: ModelParams; backtest: BacktestPart }

export function runFitTask(task: FitTask): FitResult {
  const idx = new CompIndex(task.set);
  if (task.kind === 'fit') return { kind: 'fit', params: fitModel(asOf(idx, task.day), task.day) };
  if (task.kind === 'stacked') {
    const params = tuned(task.params, task.recency, task.distance, task.kernel);
    const stacked = task.blend.stacked ? fitStacked(idx, Infinity, params) : undefined;
    return { kind: 'fit', params: stacked ? { ...params, stacked } : params };
  }
  const bt = backtest(idx, undefined, undefined, new Map(task.fitted));
  return { kind: 'backtest', blend: bt.blend, recency: bt.recency, distance: bt.distance, kernel: bt.kernel, testStart: bt.split.testStart, predictions: bt.predictions };
}

/** A task and the jobs (by position) whose results it needs: `task` builds it from them once they are done. */
export interface Job { label: string; deps: number[]; task: (results: readonly FitResult[]) => FitTask }

/** Worker threads the step uses by default: one per core, none (this thread) on a single core. */
export const defaultWorkers = (): number => (os.availableParallelism() > 1 ? os.availableParallelism() : 0);

/** Fits every source: in this thread when `workers` is 0, else on that many worker threads. Jobs in priority order,
 *  the biggest source first: its back-test's models, its back-test (ready once they are: NYC's predictions take a
 *  minute, so they start while the other thread fits the next models), its live params. Results in `sets` order. */
export async function fitSources(sets: readonly CompSetData[], workers = defaultWorkers()): Promise<SourceFit[]> {
  const jobs: Job[] = [];
  const at = new Map<CompSetData, { live: number; backtest: number }>();
  for (const set of [...sets].sort((a, b) => b.day.length - a.day.length)) {
    const days = backtestFitDays(new CompIndex(set));
    const fits = days.map((day) => jobs.push({ label: `fit of ${set.source} before day ${day}`, deps: [], task: () => ({ kind: 'fit', set, day }) }) - 1);
    const backtestJob = jobs.push({ label: `backtest of ${set.source}`, deps: fits, task: (r) => ({ kind: 'backtest', set, fitted: days.map((day, j) => [day, paramsOf(r[fits[j]!])]) }) }) - 1;
    const fit = jobs.push({ label: `fit of ${set.source} on every comp`, deps: [], task: () => ({ kind: 'fit', set, day: Infinity }) }) - 1;
    const live = jobs.push({ label: `stacked trees of ${set.source} on every comp`, deps: [fit, backtestJob], task: (r) => {
      const bt = r[backtestJob]!;
      if (bt.kind !== 'backtest') throw new Error(`job ${backtestJob} is no back-test`);
      return { kind: 'stacked', set, params: paramsOf(r[fit]), blend: bt.blend, recency: bt.recency, distance: bt.distance, kernel: bt.kernel };
    } }) - 1;
    at.set(set, { live, backtest: backtestJob });
  }
  const results = workers <= 0 ? runInThread(jobs) : await runOnWorkers(jobs, workers);
  return sets.map((set) => {
    const { live, backtest: b } = at.get(set)!;
    const bt = results[b]!;
    if (bt.kind !== 'backtest') throw new Error(`job ${b} is no back-test`);
    const { kind: _kind, ...part } = bt;
    return { params: paramsOf(results[live]), backtest: part };
  });
}

const paramsOf = (r: FitResult | undefined): ModelParams => {
  if (r?.kind !== 'fit') throw new Error('a back-test was given a job that is no fit');
  return r.params;
};

/** The jobs one after the other (their order puts every job after its deps). */
function runInThread(jobs: readonly Job[]): FitResult[] {
  const results: FitResult[] = [];
  for (const job of jobs) results.push(runFitTask(job.task(results)));
  return results;
}

/** The worker entry: a .mjs that registers tsx, so a worker loads the .ts modules under the CLI (tsx), vitest or plain node. */
const WORKER_ENTRY = new URL('./fit-worker.mjs', import.meta.url);

type Reply = { ok: true; result: FitResult } | { ok: false; error: string };

/** Runs the jobs on a pool of worker threads, each free worker taking the first job whose deps are done; rejects
 *  (and stops every worker) on the first job that throws or worker that dies, naming the job: never a hang. */
export function runOnWorkers(jobs: readonly Job[], workers: number, entry: URL = WORKER_ENTRY): Promise<FitResult[]> {
  const results = new Array<FitResult>(jobs.length);
  const started = new Array<boolean>(jobs.length).fill(false);
  const pool: Worker[] = [];
  const idle: Worker[] = [];
  return new Promise<FitResult[]>((resolve, reject) => {
    let done = 0, failed = false;
    const fail = (label: string, err: unknown): void => {
      if (failed) return;
      failed = true;
      for (const w of pool) void w.terminate();
      reject(new Error(`valuation worker failed (${label}): ${err instanceof Error ? err.message : String(err)}`, { cause: err }));
    };
    const feed = (w: Worker): void => {
      for (const e of ['message', 'error', 'exit']) w.removeAllListeners(e);
      const i = jobs.findIndex((job, k) => !started[k] && job.deps.every((d) => results[d] !== undefined));
      if (i < 0) { // nothing ready: woken when a job ends; one that dies meanwhile fails the step, never a hang
        w.once('exit', (code) => fail('an idle worker', new Error(`exited with code ${code}`)));
        idle.push(w);
        return;
      }
      started[i] = true;
      const { label } = jobs[i]!;
      w.once('message', (m: Reply) => {
        if (!m.ok) return fail(label, new Error(m.error));
        results[i] = m.result;
        if (++done === jobs.length) {
          for (const x of pool) { for (const e of ['message', 'error', 'exit']) x.removeAllListeners(e); void x.terminate(); }
          return resolve(results);
        }
        feed(w);
        for (const x of idle.splice(0)) feed(x);
      });
      w.once('error', (err) => fail(label, err));
      w.once('exit', (code) => fail(label, new Error(`exited with code ${code} before answering`)));
      try {
        w.postMessage(jobs[i]!.task(results));
      } catch (err) {
        fail(label, err);
      }
    };
    if (jobs.length === 0) return resolve(results);
    for (let k = 0; k < Math.min(workers, jobs.length); k++) {
      const w = new Worker(entry);
      pool.push(w);
      feed(w);
    }
  });
}
