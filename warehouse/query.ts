// `reii query`: read-only SQL for analysts against a build's warehouse.
import { openWarehouse, queryRows, withConnection } from './db.ts';
import { CliError, EXIT } from '../pipelines/errors.ts';

export async function runQuery(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const wh = await openWarehouse(file, { readOnly: true });
  try {
    return await withConnection(wh, async (conn) => {
      try {
        return await queryRows(conn, sql);
      } catch (err) {
        throw new CliError(`query failed: ${(err as Error).message}`, { exitCode: EXIT.usage });
      }
    });
  } finally {
    wh.close();
  }
}
