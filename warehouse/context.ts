// What every stage receives: its effects are injected so tests can pass a silent logger and a temp folder.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from './log.ts';
import type { Settings } from './settings.ts';

export interface BuildPaths {
  sources: string; // raw source folders (../shared/data layout)
  build: string; // artifacts/builds/<id>
  warehouse: string; // <build>/warehouse.duckdb
  shards: string; // <build>/shards
}

/** A rejected row (meta.rejects, defined in sources/rejects.ts). */
export interface Reject {
  stage: string;
  source: string;
  file: string | null;
  line: number | null;
  /** The rule the row broke: a short stable code, e.g. 'out_of_range', 'unclosed_quote' (the table's `rule` column). */
  reason: string;
  /** Free text; ignored when column or value is given (the detail is then `<column>=<value>`). */
  detail: string | null;
  /** The column whose value broke the rule, and that value (cut to 200 characters). */
  column?: string | null;
  value?: string | null;
}

export interface StageContext {
  db: DuckDBConnection;
  settings: Readonly<Settings>;
  paths: BuildPaths;
  buildId: string;
  /** The build's reference date: the date the build ran (pinned in tests). */
  builtAt: Date;
  log: Logger;
  /** Absolute paths of the present files of a source file entry (empty when the source is absent). */
  sourceFiles(sourceId: string, key: string): string[];
  /** Records rejected rows (TS steps); SQL steps insert into meta.rejects directly (detail: reject_detail(column, value)). */
  addRejects(rows: Reject[]): Promise<void>;
}
