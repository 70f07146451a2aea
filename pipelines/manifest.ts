// <build>/manifest.json as the build writes it (pipelines/build.ts) and the report reads it (pipelines/report.ts).
// The server reads only format_version, build_id, as_of and built_at (api/builds.ts).
import type { FileRejects, RejectCount } from './sources/rejects.ts';

export interface Manifest {
  format_version: number;
  build_id: string;
  as_of: string;
  built_at: string;
  status: 'published' | 'checks_failed' | 'partial';
  only_stages: string[] | null;
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
