// `reii query`: read-only SQL for analysts against a build's warehouse. The database is opened read-only and
// the connection may touch no other file: external access is switched off and the setting locked before the
// analyst's SQL runs, so `COPY ... TO`, `read_csv('/etc/...')`, ATTACH and INSTALL are refused.
import { openWarehouse, queryRows, withConnection } from './db.ts';
import { CliError, EXIT } from './errors.ts';

export async function runQuery(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const wh = await openWarehouse(file, { readOnly: true });
  try {
    return await withConnection(wh, async (conn) => {
      await conn.run('set enable_external_access = false; set lock_configuration = true');
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
