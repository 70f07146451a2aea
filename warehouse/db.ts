// One DuckDB instance per database file per process. Connections are scoped: closed in finally.
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readSql } from './sql.ts';

export interface WarehouseOptions {
  readOnly?: boolean;
  threads?: number;
  memoryLimit?: string;
}

export interface Warehouse {
  instance: DuckDBInstance;
  connect(): Promise<DuckDBConnection>;
  close(): void;
}

const MACROS = readSql(import.meta.dirname, 'macros.sql');

export async function openWarehouse(file: string, opts: WarehouseOptions = {}): Promise<Warehouse> {
  const config: Record<string, string> = {};
  if (opts.readOnly) config['access_mode'] = 'READ_ONLY';
  if (opts.threads) config['threads'] = String(opts.threads);
  if (opts.memoryLimit) config['memory_limit'] = opts.memoryLimit;
  if (file !== ':memory:' && !opts.readOnly) {
    // Spill files of big sorts and joins go beside the database, not into /tmp.
    config['temp_directory'] = path.join(path.dirname(file), '.duckdb-tmp');
    fs.mkdirSync(path.dirname(file), { recursive: true });
  }
  const instance = await DuckDBInstance.create(file, config);
  if (!opts.readOnly) {
    const conn = await instance.connect();
    try { await conn.run(MACROS); } finally { conn.closeSync(); }
  }
  return {
    instance,
    connect: async () => {
      const conn = await instance.connect();
      if (opts.readOnly) await conn.run(MACROS.replaceAll('create or replace macro', 'create or replace temp macro'));
      return conn;
    },
    close: () => instance.closeSync(),
  };
}

/** Runs fn with a fresh connection, closing it afterwards. */
export async function withConnection<T>(wh: Warehouse, fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const conn = await wh.connect();
  try {
    return await fn(conn);
  } finally {
    conn.closeSync();
  }
}

/** Rows as plain JSON-safe objects (BIGINT and DECIMAL become strings: cast in SQL where a number is wanted). */
export async function queryRows<T = Record<string, unknown>>(conn: DuckDBConnection, sql: string, params?: Record<string, unknown>): Promise<T[]> {
  const reader = await conn.runAndReadAll(sql, params as never);
  return reader.getRowObjectsJson() as T[];
}

/** Whether a table of the main schema has a column: a step reads an optional column only where an earlier step made
 *  it (`zip_imputed` exists only where the geography fill ran). */
export async function columnExists(conn: DuckDBConnection, table: string, column: string): Promise<boolean> {
  const rows = await queryRows<{ n: number }>(conn, 'select count(*)::int as n from information_schema.columns where table_name = $table and column_name = $column', { table, column });
  return (rows[0]?.n ?? 0) > 0;
}

export async function tableExists(conn: DuckDBConnection, qualified: string): Promise<boolean> {
  const [schema, name] = qualified.includes('.') ? qualified.split('.', 2) : ['main', qualified];
  const rows = await queryRows<{ n: number }>(conn,
    `select count(*)::int as n from (
       select schema_name, table_name from duckdb_tables()
       union all select schema_name, view_name from duckdb_views()
     ) where schema_name = $schema and table_name = $name`, { schema: schema!, name: name! });
  return (rows[0]?.n ?? 0) > 0;
}
