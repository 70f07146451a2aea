// Reading .sql files that sit beside the code that runs them.
import fs from 'node:fs';
import path from 'node:path';
export { quotedIdentifier } from '@duckdb/node-api';

export function readSql(dir: string, file: string): string {
  return fs.readFileSync(path.join(dir, file), 'utf8');
}

/**
 * Header directives at the top of a step's SQL:
 *   -- requires: raw.king_county__sales, raw.other   (skip the step, with a warning, when a table is missing)
 */
export function sqlRequires(sql: string): string[] {
  const out: string[] = [];
  for (const line of sql.split('\n')) {
    const m = /^--\s*requires:\s*(.+)$/.exec(line.trim());
    if (m) out.push(...m[1]!.split(',').map((s) => s.trim()).filter(Boolean));
    else if (line.trim() !== '' && !line.trim().startsWith('--')) break;
  }
  return out;
}

/** Escapes a value for a SQL string literal (file paths in read_csv calls, which cannot be bound). */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
