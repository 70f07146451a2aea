// The contract between the server core and a live endpoint (valuation, research, autocomplete,
// location points). The core does routing, auth, limits, parameter/body validation and sending;
// a live module only answers an already-validated input from data its build prepared.

import fs from 'node:fs';
import path from 'node:path';
import type { Settings } from './settings.ts';

export interface FieldError {
  field: string;
  code: string; // e.g. required, type, pattern, enum, range, min_length
  message: string;
}

/** The error codes a live endpoint may answer with: rows of the API's error catalog (api/errors.ts), which
 *  decides their status (bad_request 400, no_data 404, validation_failed 422, upstream_timeout 504). */
export type LiveErrorCode = 'bad_request' | 'no_data' | 'validation_failed' | 'upstream_timeout';

/** Thrown by Deadline.check() past the budget: the module's handle answers it as upstream_timeout (504). */
export class LiveTimeout extends Error {
  constructor(readonly budgetMs: number) {
    super(`The answer took longer than its ${budgetMs} ms budget; retry with a different set of query parameters`);
  }
}

/** A cooperative time budget of one answer (valuation, research: the setting liveTimeoutMs): the computation calls
 *  check() between its stages, so a request past its budget stops there, before the next stage, and burns no more CPU.
 *  A check never falls inside a cache fill (each stage fills its caches whole before the next check). */
export interface Deadline {
  check(): void;
}

/** No budget (scripts, tests, the back-test): check() never throws. */
export const NO_DEADLINE: Deadline = { check() {} };

/** The deadline budgetMs after now (0: the first check throws); `clock` is injectable for tests. */
export function deadlineIn(budgetMs: number, clock: () => number = () => performance.now()): Deadline {
  const end = clock() + budgetMs;
  return { check() { if (clock() >= end) throw new LiveTimeout(budgetMs); } };
}

/** The answer of `run` under a deadline of budgetMs: a LiveTimeout it throws is the upstream_timeout answer. */
export async function timeBoxed(budgetMs: number, run: (deadline: Deadline) => LiveAnswer | Promise<LiveAnswer>): Promise<LiveAnswer> {
  try {
    return await run(deadlineIn(budgetMs));
  } catch (e) {
    if (e instanceof LiveTimeout) return { ok: false, code: 'upstream_timeout', message: e.message };
    throw e;
  }
}

export type LiveAnswer =
  | { ok: true; body: unknown }
  | { ok: false; code: LiveErrorCode; message: string; errors?: FieldError[] };

export interface LiveBuild {
  dir: string; // the build folder (artifacts/builds/<id>): warehouse.duckdb, shards/, live/
  buildId: string;
  asOf: string;
  /** The server's settings, read once at start (warehouse/settings.ts): a module reads no environment itself. */
  settings: Readonly<Settings>;
  /** The build's shards: the server passes its shard store (api/shards.ts), so a module's reads share its cache;
   *  absent (tests, scripts), a module reads `<dir>/shards` with fileShards(). */
  shards?: ShardReader;
}

/** A build's shard files (`<build>/shards/`), by the relative paths warehouse/layout.ts shardPath() gives. */
export interface ShardReader {
  /** The bytes of one shard; null when the build has none at `rel`. */
  read(rel: string): Promise<Buffer | null>;
  /** Whether the build has a file or folder at `rel` (a family's folder: any family may be absent from a build). */
  exists(rel: string): Promise<boolean>;
}

/** A ShardReader over a shards folder on disk, without a cache. */
export function fileShards(folder: string): ShardReader {
  const root = path.resolve(folder);
  const inside = (rel: string): string | null => { const abs = path.join(root, rel); return abs.startsWith(root + path.sep) ? abs : null; };
  return {
    async read(rel) {
      const abs = inside(rel);
      if (!abs) return null;
      try {
        return await fs.promises.readFile(abs);
      } catch {
        return null;
      }
    },
    async exists(rel) {
      const abs = inside(rel);
      if (!abs) return false;
      try {
        await fs.promises.access(abs);
        return true;
      } catch {
        return false;
      }
    },
  };
}

export interface LiveInstance<I> {
  handle(input: I): LiveAnswer | Promise<LiveAnswer>;
  /** Frees what load() opened; called when the server has switched to a newer build. */
  close?(): void | Promise<void>;
}

/** The instance of a module whose build lacks its data (or has it unreadable): every request is a 404 saying so. */
export function unavailable<I>(message: string): LiveInstance<I> {
  return { handle: (): LiveAnswer => ({ ok: false, code: 'no_data', message }) };
}

export interface LiveModule<I> {
  /** What the endpoint answers about, in logs and in "<name> data is not available in build <id>". */
  readonly name: string;
  /** Called when the server loads a build (at start and when a new build is published); may read
   *  files under `<dir>/live/` or open the warehouse read-only. Must not throw for a build that lacks
   *  its data: return an instance that answers 404 with a clear message instead. */
  load(build: LiveBuild): Promise<LiveInstance<I>>;
}

/** The identity of a build a module's shared engine is kept for (its folder, id and data date). */
export type BuildKey = Pick<LiveBuild, 'dir' | 'buildId' | 'asOf'>;

/** `make` kept for the last build it was called with: two modules reading one engine (GET /v1/property and the
 *  valuation's subject lookup; the valuation and research's value answers) parse and hold its files once, and a newly
 *  published build replaces it. */
export function lastBuildOnly<T>(make: (build: BuildKey) => T): (build: BuildKey) => T {
  let last: { dir: string; buildId: string; asOf: string; value: T } | null = null;
  return (build) => {
    if (last && last.dir === build.dir && last.buildId === build.buildId && last.asOf === build.asOf) return last.value;
    const value = make(build);
    last = { dir: build.dir, buildId: build.buildId, asOf: build.asOf, value };
    return value;
  };
}
