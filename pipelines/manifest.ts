// <build>/manifest.json as the build writes it (pipelines/build-manifest.ts) and the report reads it (pipelines/report.ts).
// The server reads only format_version, build_id, as_of and built_at (api/builds.ts), and only from `current`:
// a failed, checks_failed or partial build is never served.
import type { FileRejects, RejectCount } from './sources/rejects.ts';

/** What stopped a build that was not published (null for a published or partial one). */
export interface ManifestFailure {
  stage: string | null; // the stage that failed (a gate such as the reject share fails its stage), null when none named
  file: string | null; // the file it was reading, relative to the sources folder when it is a source file
  message: string; // the error the CLI printed
  exit_code: number; // 3 a stage failed, 4 data checks failed
  checks: string[]; // the data checks that failed
}

export interface Manifest {
  format_version: number;
  build_id: string;
  as_of: string;
  built_at: string;
  /** failed: a stage or gate stopped the build (exit 3), kept as builds/<id>.failed with what ran before it. */
  status: 'published' | 'checks_failed' | 'partial' | 'failed';
  only_stages: string[] | null;
  failure?: ManifestFailure | null;
  sources: unknown[];
  stages: { name: string; seconds: number; steps?: unknown[] }[];
  /** by_source: rows per source and rule (breaks_contract: the rule counts toward a file's reject share);
   *  by_file: the files with rows that broke the contract, their share and top rules (sources/rejects.ts). */
  rejects: { total: number; by_source: RejectCount[]; by_file: FileRejects[] };
  checks: unknown[];
  shards: { total: number; by_family: Record<string, number>; bytes: number };
  tables: { name: string; rows: number }[];
  attribution: string[];
  peak_rss_mb: number;
}
