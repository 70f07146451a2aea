import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(process.argv[2]!, { access_mode: 'READ_ONLY' });
const c = await db.connect();
for (const sql of process.argv.slice(3)) { const r = await c.runAndReadAll(sql); console.log(JSON.stringify(r.getRowObjectsJson()).slice(0, 3000)); }
