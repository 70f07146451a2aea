// `reii query`: read-only SQL for analysts against a build's warehouse, in a sandbox set before any SQL runs:
// the instance is created read-only with external access off and its configuration locked (DuckDB config at
// creation, so no statement ever runs with files reachable): `COPY ... TO`, `read_csv('/etc/...')`, ATTACH,
// INSTALL/LOAD and any write are refused. Each run has a memory limit, a statement time limit (the
// connection is interrupted) and a row cap (more rows than the cap is refused, not silently cut). Refusals
// are a CliError (exit 2) that says which rule stopped the statement.
import { DuckDBInstance } from '@duckdb/node-api';
import { readSql } from './sql.ts';
import { CliError, EXIT } from './errors.ts';

export interface QueryLimits {
  timeoutMs: number; // statement time limit
  maxRows: number; // rows a result may have
  memoryLimit: string; // DuckDB memory_limit
}

export const QUERY_LIMITS: Readonly<QueryLimits> = { timeoutMs: 60_000, maxRows: 100_000, memoryLimit: '1GB' };

const MACROS = readSql(import.meta.dirname, 'macros.sql').replaceAll('create or replace macro', 'create or replace temp macro');

/** Why DuckDB refused, in the words of the sandbox's rules. */
function refusal(message: string, limits: QueryLimits): string {
  if (/interrupt/i.test(message)) return `stopped after ${limits.timeoutMs} ms: the statement time limit of reii query`;
  if (/read-only|read only/i.test(message)) return `${message} (reii query is read-only: the warehouse cannot be changed)`;
  if (/disabled by configuration|configuration has been locked|external access/i.test(message)) return `${message} (reii query reads only the warehouse: no other file, no extension, no setting change)`;
  if (/memory/i.test(message)) return `${message} (the memory limit of reii query is ${limits.memoryLimit})`;
  return message;
}

export async function runQuery(file: string, sql: string, opts: Partial<QueryLimits> = {}): Promise<Record<string, unknown>[]> {
  const limits: QueryLimits = { ...QUERY_LIMITS, ...opts };
  const instance = await DuckDBInstance.create(file, {
    access_mode: 'READ_ONLY',
    enable_external_access: 'false',
    autoload_known_extensions: 'false',
    autoinstall_known_extensions: 'false',
    memory_limit: limits.memoryLimit,
    max_temp_directory_size: '0KiB',
    threads: '2',
    lock_configuration: 'true',
  });
  try {
    const conn = await instance.connect();
    try {
      await conn.run(MACROS);
      const timer = setTimeout(() => conn.interrupt(), limits.timeoutMs);
      let reader;
      try {
        reader = await conn.runAndReadUntil(sql, limits.maxRows + 1);
      } catch (err) {
        throw new CliError(`query failed: ${refusal((err as Error).message, limits)}`, { exitCode: EXIT.usage });
      } finally {
        clearTimeout(timer);
      }
      if (reader.currentRowCount > limits.maxRows) {
        throw new CliError(`query failed: more than ${limits.maxRows} rows (the row cap of reii query): aggregate, filter or add a LIMIT`, { exitCode: EXIT.usage });
      }
      return reader.getRowObjectsJson() as Record<string, unknown>[];
    } finally {
      conn.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
