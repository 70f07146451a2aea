// The contract between the server core and a live endpoint (valuation, research, autocomplete,
// location points). The core does routing, auth, limits, parameter/body validation and sending;
// a live module only answers an already-validated input from data its build prepared.

import type { Settings } from './settings.ts';

export interface FieldError {
  field: string;
  code: string; // e.g. required, type, pattern, enum, range, min_length
  message: string;
}

/** The error codes a live endpoint may answer with: rows of the API's error catalog (api/errors.ts), which
 *  decides their status (bad_request 400, no_data 404, validation_failed 422, upstream_timeout 504). */
export type LiveErrorCode = 'bad_request' | 'no_data' | 'validation_failed' | 'upstream_timeout';

export type LiveAnswer =
  | { ok: true; body: unknown }
  | { ok: false; code: LiveErrorCode; message: string; errors?: FieldError[] };

export interface LiveBuild {
  dir: string; // the build folder (artifacts/builds/<id>): warehouse.duckdb, shards/, live/
  buildId: string;
  asOf: string;
  /** The server's settings, read once at start (warehouse/settings.ts): a module reads no environment itself. */
  settings: Readonly<Settings>;
}

export interface LiveInstance<I> {
  handle(input: I): LiveAnswer | Promise<LiveAnswer>;
  /** Frees what load() opened; called when the server has switched to a newer build. */
  close?(): void | Promise<void>;
}

export interface LiveModule<I> {
  /** Called when the server loads a build (at start and when a new build is published); may read
   *  files under `<dir>/live/` or open the warehouse read-only. Must not throw for a build that lacks
   *  its data: return an instance that answers 404 with a clear message instead. */
  load(build: LiveBuild): Promise<LiveInstance<I>>;
}
