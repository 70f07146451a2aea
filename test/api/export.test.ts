// Bulk export (issue 10): pipelines/export/write.ts writes Parquet, CSV and NDJSON per dataset with a
// manifest (rows, bytes, sha256); the files read back in DuckDB with the manifest's counts; GET /v1/export
// lists them (scale plan) and GET /v1/export/{dataset} streams them with Range, If-Range and ETag.
// Files are read back with DuckDB (read_parquet / read_csv / read_json): apache-arrow reads Arrow IPC, not
// Parquet, so it adds nothing here.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { publish } from '../../pipelines/publish.ts';
import { FORMAT_VERSION } from '../../warehouse/layout.ts';
import { run as runExport } from '../../pipelines/export/write.ts';
import { EXPORT_DATASET_NAMES, EXPORT_DATASETS, EXPORT_FORMATS, type ExportManifest } from '../../warehouse/export.ts';
import { parseRange } from '../../api/export/files.ts';
import { openWarehouse, queryRows } from '../../warehouse/db.ts';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { artifactsDir, buildDir } from '../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/server.ts';

const sha256 = (buf: Buffer): string => crypto.createHash('sha256').update(buf).digest('hex');

/** Row count of an export file, read back by DuckDB. */
async function duckCount(file: string, format: string): Promise<number> {
  const wh = await openWarehouse(':memory:');
  const db = await wh.connect();
  try {
    const reader = format === 'parquet' ? `read_parquet('${file}')` : format === 'csv' ? `read_csv('${file}', header = true, all_varchar = true)` : `read_json('${file}', format = 'newline_delimited')`;
    return (await queryRows<{ n: number }>(db, `select count(*)::int as n from ${reader}`))[0]!.n;
  } finally {
    db.closeSync();
    wh.close();
  }
}

async function duckRows<T>(sql: string): Promise<T[]> {
  const wh = await openWarehouse(':memory:');
  const db = await wh.connect();
  try { return await queryRows<T>(db, sql); } finally { db.closeSync(); wh.close(); }
}

async function checkFiles(dir: string, m: ExportManifest): Promise<void> {
  for (const f of m.files) {
    const abs = path.join(dir, 'export', f.file);
    const buf = fs.readFileSync(abs);
    expect(buf.length, f.file).toBe(f.bytes);
    expect(sha256(buf), f.file).toBe(f.sha256);
    expect(await duckCount(abs, f.format), f.file).toBe(f.rows);
  }
}

// ------------------------------------------------------------------ a small deterministic build

describe('export step and routes over a small build', () => {
  let ctx: TestContext;
  let artifacts: string;
  let dir: string;
  let manifest: ExportManifest;
  let srv: TestServer;
  let scale: string;

  beforeAll(async () => {
    ctx = await makeContext();
    await ctx.db.run(`
      create table states as select * from (values ('MA', 'Massachusetts', '25'), ('WA', 'Washington', '53'), ('TX', 'Texas', '48')) t(state_code, state_name, state_fips);
      create table mart_location_risk as select * from (values
        ('02134', 'Boston', 'MA', 'X', 12, date '2026-10-31', ['a', 'b']),
        ('98101', 'Seattle', 'WA', 'AE', 70, date '2026-10-31', []::varchar[])) t(zip_code, city, state, flood_zone, environmental_risk_score, as_of, notes);
      create table regulations as select * from (values
        ('wa-1', 'WA', 'eviction', 'active', '{"days": 14}'::json, ['source'], 'He said "no", then left'),
        ('wa-2', 'WA', 'zoning', 'expired', null, []::varchar[], 'line one
line two')) t(id, state_code, category, status, structured_data, uncertain_fields, summary);
      create table property_lineage as select * from (values ('67792757b63bcd35', 'sqft', '1180', true)) t(property_id, field, value, chosen);
    `);
    artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-export-art-'));
    dir = path.join(artifacts, 'builds', 'x1');
    fs.mkdirSync(path.join(dir, 'shards'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ format_version: FORMAT_VERSION, build_id: 'x1', as_of: '2026-10-31', built_at: '2026-11-21T06:00:00.000Z' }));
    await runExport({ ...ctx, buildId: 'x1', paths: { ...ctx.paths, build: dir } });
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'export', 'manifest.json'), 'utf8')) as ExportManifest;
    publish(artifacts, dir);
    srv = await startTestServer(artifacts);
    scale = srv.key('scale');
  });
  afterAll(async () => {
    await srv?.close();
    ctx?.close();
  });

  test('manifest: present datasets in their formats, absent tables skipped', () => {
    expect(manifest.build_id).toBe('x1');
    expect(manifest.datasets.map((d) => d.dataset)).toEqual(['location_risk', 'regulations', 'states', 'property_lineage']);
    expect(manifest.skipped.map((s) => s.dataset)).toEqual(['comps', 'rehab', 'investor', 'market_monthly', 'cities', 'properties', 'property_sales']);
    expect(manifest.files.map((f) => `${f.dataset}.${f.format}`)).toEqual([
      'location_risk.parquet', 'location_risk.csv', 'location_risk.ndjson',
      'regulations.parquet', 'regulations.csv', 'regulations.ndjson',
      'states.parquet', 'states.csv', 'states.ndjson',
      // a dataset that lists its formats gets only those (warehouse/export.ts)
      'property_lineage.parquet', 'property_lineage.csv',
    ]);
    expect(manifest.files.find((f) => f.file === 'states.csv')).toMatchObject({ rows: 3 });
  });

  test('files match the manifest (bytes, sha256) and read back in DuckDB with its row counts', async () => {
    await checkFiles(dir, manifest);
    const e = path.join(dir, 'export');
    // Parquet keeps types (zips as text with leading zeros, dates as DATE), zstd, and build metadata.
    const rows = await duckRows<{ zip_code: string; as_of: string; t: string }>(`select zip_code, as_of::varchar as as_of, typeof(as_of) as t from read_parquet('${e}/location_risk.parquet') order by zip_code`);
    expect(rows[0]).toEqual({ zip_code: '02134', as_of: '2026-10-31', t: 'DATE' });
    const codec = await duckRows<{ c: string }>(`select distinct compression as c from parquet_metadata('${e}/states.parquet')`);
    expect(codec.map((c) => c.c)).toEqual(['ZSTD']);
    const kv = await duckRows<{ k: string; v: string }>(`select decode(key) as k, decode(value) as v from parquet_kv_metadata('${e}/states.parquet')`);
    expect(Object.fromEntries(kv.map((x) => [x.k, x.v]))).toMatchObject({ build_id: 'x1', dataset: 'states', schema_version: '1' });
    // CSV: header line, sorted rows, zips keep leading zeros, nested values as JSON text.
    const csv = fs.readFileSync(`${e}/location_risk.csv`, 'utf8').split('\n');
    expect(csv[0]).toBe('zip_code,city,state,flood_zone,environmental_risk_score,as_of,notes');
    expect(csv[1]).toMatch(/^02134,Boston,MA,X,12,2026-10-31,/);
    const regs = await duckRows<{ summary: string }>(`select summary from read_csv('${e}/regulations.csv', header = true, all_varchar = true) order by id`);
    expect(regs.map((r) => r.summary)).toEqual(['He said "no", then left', 'line one\nline two']);
    // NDJSON: one object per line, native JSON for nested values.
    const lines = fs.readFileSync(`${e}/regulations.ndjson`, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 'wa-1', structured_data: { days: 14 }, uncertain_fields: ['source'] });
  });

  test('GET /v1/export lists the manifest (scale plan and up)', async () => {
    for (const plan of ['starter', 'builder', 'pro']) expect((await srv.get('/v1/export', srv.key(plan))).status).toBe(403);
    const res = await srv.get('/v1/export', scale);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { files: { dataset: string; format: string; url: string; sha256: string }[] };
    expect(schemaErrors('ExportList', body)).toEqual([]);
    expect(body.files).toHaveLength(11);
    expect(body.files[0]).toMatchObject({ dataset: 'location_risk', format: 'parquet', url: '/v1/export/location_risk?format=parquet' });
    expect((await srv.get('/v1/export', srv.key('enterprise'))).status).toBe(200);
  });

  test('GET /v1/export/{dataset}: whole file, content type, ETag, disposition', async () => {
    const cases = [['states', undefined, 'application/vnd.apache.parquet', 'states.parquet'], ['states', 'csv', 'text/csv', 'states.csv'], ['regulations', 'ndjson', 'application/x-ndjson', 'regulations.ndjson']] as const;
    for (const [ds, format, type, file] of cases) {
      const res = await srv.get(`/v1/export/${ds}${format ? `?format=${format}` : ''}`, scale);
      expect(res.status).toBe(200);
      const buf = Buffer.from(await res.arrayBuffer());
      const entry = manifest.files.find((f) => f.file === file)!;
      expect(buf.equals(fs.readFileSync(path.join(dir, 'export', file)))).toBe(true);
      expect(res.headers.get('content-type')!.split(';')[0]).toBe(type);
      expect(res.headers.get('etag')).toBe(`"${entry.sha256}"`);
      expect(res.headers.get('content-length')).toBe(String(entry.bytes));
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('cache-control')).toBe('private, no-cache'); // same path every build: revalidate by ETag
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="reii-${ds}-x1.${file.split('.')[1]}"`);
      expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
    const head = await fetch(`${srv.url}/v1/export/states`, { method: 'HEAD', headers: { 'X-Service-Key': scale } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  test('Range requests return the exact bytes; If-Range; 416; 304', async () => {
    const file = fs.readFileSync(path.join(dir, 'export', 'regulations.parquet'));
    const size = file.length;
    const etag = `"${manifest.files.find((f) => f.file === 'regulations.parquet')!.sha256}"`;
    const get = (headers: Record<string, string>) => srv.get('/v1/export/regulations?format=parquet', scale, headers);
    for (const [range, start, end] of [['bytes=0-99', 0, 99], ['bytes=100-', 100, size - 1], ['bytes=-37', size - 37, size - 1], [`bytes=${size - 1}-${size + 50}`, size - 1, size - 1], ['bytes=4-4', 4, 4]] as const) {
      const res = await get({ Range: range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(Buffer.from(await res.arrayBuffer()).equals(file.subarray(start, end + 1)), range).toBe(true);
    }
    // Resuming a download: the tail from an offset equals the file's tail.
    const half = Math.floor(size / 2);
    const head = Buffer.from(await (await get({ Range: `bytes=0-${half - 1}` })).arrayBuffer());
    const tail = Buffer.from(await (await get({ Range: `bytes=${half}-`, 'If-Range': etag })).arrayBuffer());
    expect(Buffer.concat([head, tail]).equals(file)).toBe(true);
    // If-Range with another validator: the whole file (200).
    const stale = await get({ Range: 'bytes=0-9', 'If-Range': '"0000"' });
    expect(stale.status).toBe(200);
    expect(Buffer.from(await stale.arrayBuffer()).equals(file)).toBe(true);
    const weak = await get({ Range: 'bytes=0-9', 'If-Range': `W/${etag}` });
    expect(weak.status).toBe(200);
    await weak.arrayBuffer();
    // Unsatisfiable.
    const bad = await get({ Range: `bytes=${size}-` });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(((await bad.json()) as { message: string }).message).toMatch(/not satisfiable/);
    // Several ranges or other units: the whole file.
    const multi = await get({ Range: 'bytes=0-1,5-6' });
    expect(multi.status).toBe(200);
    await multi.arrayBuffer();
    // Conditional GET.
    const nm = await get({ 'If-None-Match': etag });
    expect(nm.status).toBe(304);
    expect(parseRange('bytes=5-2', 10)).toBeNull();
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('items=0-1', 10)).toBeNull();
  });

  test('dataset or format outside the list: 422; a dataset absent from this build: 404', async () => {
    const f = await srv.get('/v1/export/states?format=xml', scale);
    expect(f.status).toBe(422);
    expect(((await f.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe('format');
    const d = await srv.get('/v1/export/nope', scale);
    expect(d.status).toBe(422);
    expect(((await d.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe('dataset');
    const noFormat = await srv.get('/v1/export/property_lineage?format=ndjson', scale);
    expect(noFormat.status).toBe(404);
    expect(((await noFormat.json()) as { message: string }).message).toMatch(/as ndjson \(this dataset is exported as parquet, csv\)/);
    expect((await srv.get('/v1/export/property_lineage?format=csv', scale)).status).toBe(200);
    const absent = await srv.get('/v1/export/comps', scale);
    expect(absent.status).toBe(404);
    expect(((await absent.json()) as { message: string }).message).toMatch(/comps/);
    expect((await srv.get('/v1/export/states', srv.key('pro'))).status).toBe(403);
    expect(EXPORT_DATASET_NAMES).toEqual(['comps', 'rehab', 'investor', 'market_monthly', 'location_risk', 'regulations', 'cities', 'states', 'properties', 'property_sales', 'property_lineage']);
  });
});

// ------------------------------------------------------------------ the shared real build

describe('export files of the real build', () => {
  // warehouse/docs/export.md: each dataset's table is the first of its list that exists (written here, not read from the manifest)
  const DOC_TABLES: Record<string, string[]> = {
    comps: ['mart_comps', 'mart_market_comps', 'mart_comps_by_zip'],
    rehab: ['mart_rehab', 'mart_market_rehab', 'mart_rehab_score', 'mart_rehab_score_by_zip'],
    investor: ['mart_investor', 'mart_market_investor', 'mart_investor_overview', 'mart_investor_overview_by_city'],
    market_monthly: ['market_monthly'],
    location_risk: ['mart_location_risk'],
    regulations: ['regulations'],
    cities: ['mart_geo_cities', 'cities'],
    states: ['mart_geo_states', 'states'],
    properties: ['properties'], // issue 22: warehouse/docs/property.md
    property_sales: ['property_sales'],
    property_lineage: ['property_lineage'],
  };

  // warehouse/docs/export.md "What a file holds": the columns a file holds as the answers give them, not as stored
  const PUBLISHED: Record<string, string[]> = {
    comps: ['window_start', 'comp_count', 'sale_count', 'ppsf_p25', 'ppsf_median', 'ppsf_p75', 'dom_median', 'list_to_sale_ratio'],
    market_monthly: ['sale_count', 'sqft_count', 'dom_count', 'known_buyer_count', 'index_sample_count', 'untyped_count'], rehab: ['window_start', 'permits_window_start', 'sales_window_start', 'sales_n', 'rehab_sales', 'sample_count'],
    investor: ['window_start', 'sales_for_value', 'arms_length_sales', 'known_buyer_sales', 'investor_purchases', 'flips', 'sample_count', 'investor_purchase_rate_pct', 'flip_velocity_days', 'gross_flip_margin_pct'],
  };

  test('every manifest file matches its bytes, sha256 and the source table row count', async () => {
    const dir = buildDir();
    const file = path.join(dir, 'export', 'manifest.json');
    expect(fs.existsSync(file), `no export manifest in ${dir} (artifacts ${artifactsDir()})`).toBe(true);
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as ExportManifest;
    // The real build has every table: nothing may be skipped, every dataset in each of its formats.
    expect(m.skipped).toEqual([]);
    expect(m.datasets.map((d) => d.dataset).sort()).toEqual(Object.keys(DOC_TABLES).sort());
    expect(EXPORT_DATASET_NAMES).toHaveLength(11);
    // every dataset in each of its formats: all three, or the ones it lists (property_lineage: no NDJSON)
    const written = EXPORT_DATASETS.flatMap((d) => (d.formats ?? EXPORT_FORMATS).map((f) => `${d.dataset}.${f}`));
    expect(written).toHaveLength(11 * 3 - 1);
    expect(m.files.map((f) => `${f.dataset}.${f.format}`).sort()).toEqual(written.sort());
    await checkFiles(dir, m);
    const wh = await openWarehouse(path.join(dir, 'warehouse.duckdb'), { readOnly: true });
    const db = await wh.connect();
    try {
      const present = new Set((await queryRows<{ t: string }>(db, `select table_name as t from information_schema.tables where table_schema = 'main'`)).map((r) => r.t));
      for (const d of m.datasets) {
        const table = DOC_TABLES[d.dataset]!.find((t) => present.has(t));
        expect(d.source_table, d.dataset).toBe(table);
        const [{ n }] = (await queryRows<{ n: number }>(db, `select count(*)::int as n from "${table}"`)) as [{ n: number }];
        expect(n, d.dataset).toBe(d.rows);
      }
    } finally {
      db.closeSync();
      wh.close();
    }
  });

  test('each Parquet file holds exactly the rows of its warehouse table (both ways, as a multiset), internal _ columns left out', async () => {
    const dir = buildDir();
    const m = JSON.parse(fs.readFileSync(path.join(dir, 'export', 'manifest.json'), 'utf8')) as ExportManifest;
    const inst = await openWarehouse(':memory:');
    const db = await inst.connect();
    try {
      await db.run(`attach '${path.join(dir, 'warehouse.duckdb').replaceAll("'", "''")}' as wh (read_only)`);
      for (const d of m.datasets) {
        const table = DOC_TABLES[d.dataset]!.find((t) => d.source_table === t)!;
        const cols = (await queryRows<{ c: string }>(db, `select column_name as c from information_schema.columns
          where table_catalog = 'wh' and table_schema = 'main' and table_name = $t order by ordinal_position`, { t: table })).map((r) => r.c);
        // columns published by the minimum cohort rule or rounded (checked in the next test) are compared there, the window starts in export-window.test.ts
        const kept = cols.filter((c) => !c.startsWith('_') && !PUBLISHED[d.dataset]?.includes(c)).map((c) => `"${c}"`).join(', ');
        const parquet = `read_parquet('${path.join(dir, 'export', `${d.dataset}.parquet`).replaceAll("'", "''")}')`;
        const [diff] = await queryRows<{ missing: number; extra: number }>(db, `select
            (select count(*) from (select ${kept} from wh.main."${table}" except all select ${kept} from ${parquet}))::int as missing,
            (select count(*) from (select ${kept} from ${parquet} except all select ${kept} from wh.main."${table}"))::int as extra`);
        expect(diff, d.dataset).toEqual({ missing: 0, extra: 0 });
        const fileCols = (await queryRows<{ c: string }>(db, `select column_name as c from (describe select * from ${parquet})`)).map((r) => `"${r.c}"`);
        expect(fileCols.join(', '), d.dataset).toBe(cols.filter((c) => !c.startsWith('_')).map((c) => `"${c}"`).join(', '));
      }
    } finally {
      db.closeSync();
      inst.close();
    }
  });
});
