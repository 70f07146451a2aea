// Row contracts at the door (issue 19): every bad input gives a named reject or error, never a crash and never a
// shifted market. The rows and files are written here by hand (the expected outcome of each is read off the
// README's canonical format and warehouse/docs/market.md "Row contracts", whose bounds table is parsed, not copied);
// the file loader, the format steps and the row-contract step run for real over DuckDB. The goal test builds the
// market twice over the real geography (symlinks into ../shared/data) and real Sacramento sales written in the
// canonical format, with and without poisoned rows, and compares the marts of the two builds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { PINNED_NOW } from '../helpers/global-setup.ts';
import { runSources } from '../../pipelines/sources/index.ts';
import { REJECTS_DDL, REJECTS_DDL_BEFORE_CONTRACTS, checkRejectShare, ensureRejectsTable } from '../../pipelines/sources/rejects.ts';
import { run as rowContracts } from '../../pipelines/intermediate/30_market_44_row_contracts.ts';
import { runBuild } from '../../pipelines/build.ts';
import { type Manifest } from '../../pipelines/manifest.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger, type Logger } from '../../warehouse/log.ts';
import { StageError } from '../../warehouse/errors.ts';
import type { StageContext } from '../../warehouse/context.ts';
import { REPO, SHARED_DATA } from '../helpers/paths.ts';

const SHARED = SHARED_DATA;
const HEADER = 'address,city,state,zip,sale_date,sale_price,property_type,beds,baths,sqft,year_built,condition,lat,lng,buyer_name,seller_name';
const TODAY = PINNED_NOW.toISOString().slice(0, 10);

const tmpDirs: string[] = [];
function tmp(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(d);
  return d;
}
afterAll(() => { for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true }); });

/** The bounds table of warehouse/docs/market.md "Row contracts", read from the page. */
function documentedBounds(): Map<string, { maxPrice: number; minSqft: number; maxSqft: number }> {
  const text = fs.readFileSync(path.join(REPO, 'warehouse', 'docs', 'market.md'), 'utf8');
  const section = text.slice(text.indexOf('## Row contracts'));
  const out = new Map<string, { maxPrice: number; minSqft: number; maxSqft: number }>();
  for (const m of section.matchAll(/^\| `(\w+)` \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$/gm)) {
    const n = (s: string): number => Number(s.replaceAll(',', ''));
    out.set(m[1]!, { maxPrice: n(m[2]!), minSqft: n(m[3]!), maxSqft: n(m[4]!) });
  }
  return out;
}

/** A sources folder with hand-written canonical files (text or bytes). */
function canonicalSources(files: Record<string, string | Buffer>): string {
  const dir = tmp('reii-contracts-src-');
  fs.mkdirSync(path.join(dir, 'canonical'));
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, 'canonical', name), body);
  return dir;
}

interface Loaded { ctx: TestContext; warnings: string[] }

/** The sources stage over a folder, then the canonical staging and format steps of the files present. */
async function load(sources: string): Promise<Loaded> {
  const warnings: string[] = [];
  const base = await makeContext({ sources, now: PINNED_NOW });
  const ctx: TestContext = { ...base, log: { ...silentLogger, warn: (m: string) => { warnings.push(m); } } as Logger };
  await runSources(ctx);
  await runSqlFile(ctx, 'pipelines/intermediate/30_market_00_canonical_tables.sql');
  for (const [n, entity] of [['40', 'sales'], ['41', 'parcels'], ['42', 'permits'], ['43', 'distress']] as const) {
    const exists = await ctx.rows(`select 1 from duckdb_tables() where schema_name = 'raw' and table_name = 'canonical__${entity}'`);
    if (!exists.length) continue;
    await runSqlFile(ctx, `pipelines/staging/stg_canonical__${entity}.sql`);
    await runSqlFile(ctx, `pipelines/intermediate/30_market_${n}_canonical_${entity}.sql`);
  }
  return { ctx, warnings };
}

/** A tiny geography written by hand: WA, OR, CA with a few ZIP centroids, and one HUD pair across a state line. */
async function handGeography(ctx: TestContext): Promise<void> {
  await ctx.db.run(`
    create or replace table states as select * from (values ('WA', '53'), ('OR', '41'), ('CA', '06')) t(state_code, state_fips);
    create or replace table zips (zip varchar, state_code varchar, lat double, lng double);
    insert into zips values ('98101', 'WA', 47.61, -122.33), ('99201', 'WA', 47.66, -117.43), ('99362', 'WA', 46.06, -118.33),
        ('97201', 'OR', 45.51, -122.69), ('95838', 'CA', 38.64, -121.44);
    -- Walla Walla's 99362 reaches into Umatilla County, Oregon (41059)
    create or replace table stg_hud_crosswalk__zip_county as select * from (values ('99362', '53071'), ('99362', '41059'), ('98101', '53033')) t(zip, county_fips);`);
}

async function rejectsOf(ctx: StageContext, where = `source = 'canonical'`): Promise<{ stage: string; line: number; rule: string; column: string | null; value: string | null }[]> {
  const rows = await ctx.db.runAndReadAll(`select stage, line::int as line, rule, column_name as "column", value from meta.rejects where ${where} order by line, rule`);
  return rows.getRowObjectsJson() as never;
}

const sale = (o: Partial<Record<'address' | 'city' | 'state' | 'zip' | 'sale_date' | 'sale_price' | 'property_type' | 'beds' | 'baths' | 'sqft' | 'year_built' | 'condition' | 'lat' | 'lng' | 'buyer_name' | 'seller_name', string>> = {}): string => {
  const v = { address: '1 MAIN ST', city: 'SEATTLE', state: 'WA', zip: '98101', sale_date: '2024-01-05', sale_price: '500000', property_type: 'sfr',
    beds: '3', baths: '2', sqft: '1500', year_built: '1990', condition: 'good', lat: '47.6', lng: '-122.3', buyer_name: '"SMITH, JOHN"', seller_name: '"DOE, JANE"', ...o };
  return [v.address, v.city, v.state, v.zip, v.sale_date, v.sale_price, v.property_type, v.beds, v.baths, v.sqft, v.year_built, v.condition, v.lat, v.lng, v.buyer_name, v.seller_name].join(',');
};

// ---------------------------------------------------------------------------------------------------------------

describe('bad input: each gives a named error or reject, never a crash or a shifted row', () => {
  const stageError = async (files: Record<string, string | Buffer>): Promise<StageError> => {
    const err = await load(canonicalSources(files)).then((l) => { l.ctx.close(); return null; }, (e: unknown) => e);
    expect(err).toBeInstanceOf(StageError);
    return err as StageError;
  };

  test('an empty file fails the sources stage naming the file', async () => {
    const err = await stageError({ 'sales.csv': '' });
    expect(err.message).toBe('stage sources failed in canonical/sales.csv: the file is empty (0 bytes): a CSV file needs at least its header line');
    expect(err.exitCode).toBe(3);
  });

  test('a header without data rows loads nothing, with a warning naming the file', async () => {
    const { ctx, warnings } = await load(canonicalSources({ 'sales.csv': `${HEADER}\n` }));
    try {
      expect(await ctx.rows(`select count(*)::int as n from raw."canonical__sales"`)).toEqual([{ n: 0 }]);
      expect(await ctx.rows(`select count(*)::int as n from sales`)).toEqual([{ n: 0 }]);
      expect(await rejectsOf(ctx)).toEqual([]);
      expect(warnings).toContain('canonical/sales.csv: no data row loaded (a header only, or every line rejected)');
    } finally { ctx.close(); }
  });

  test('a missing column and a renamed one fail naming the file and the columns', async () => {
    const missing = await stageError({ 'sales.csv': `${HEADER.replace('sale_date,', '')}\n` });
    expect(missing.message).toMatch(/^stage sources failed in canonical\/sales\.csv: missing required column\(s\) sale_date \(line 1 header\); see README/);
    const renamed = await stageError({ 'sales.csv': `${HEADER.replace('sale_price', 'sale_amount')}\n${sale()}\n` });
    expect(renamed.message).toContain('missing required column(s) sale_price (line 1 header); the header has sale_amount, not in the format (renamed?)');
  });

  test('UTF-16 files (either byte order, with or without a byte-order mark) fail naming the file and the encoding', async () => {
    const text = `${HEADER}\n${sale()}\n`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    expect((await stageError({ 'sales.csv': le })).message).toBe('stage sources failed in canonical/sales.csv: the file is UTF-16 (byte-order mark FF FE): save it as UTF-8 (CSV UTF-8)');
    expect((await stageError({ 'sales.csv': Buffer.concat([Buffer.from([0xfe, 0xff]), be]) })).message).toContain('UTF-16 (byte-order mark FE FF)');
    expect((await stageError({ 'sales.csv': Buffer.from(text, 'utf16le') })).message).toContain('canonical/sales.csv: the file has NUL bytes: it is UTF-16 without a byte-order mark');
  });

  test('a Latin-1 file: the lines with non-UTF-8 bytes are rejected as bad_encoding, the others land unchanged', async () => {
    const lines = [HEADER, sale({ address: '1 ELM ST' }), sale({ address: '2 ELM ST', buyer_name: '"MU\u00d1OZ, ANA"' }), sale({ address: '3 ELM ST', buyer_name: '"LEE, AL"' })];
    const { ctx } = await load(canonicalSources({ 'sales.csv': Buffer.from(lines.join('\n') + '\n', 'latin1') }));
    try {
      expect((await rejectsOf(ctx)).map(({ line, rule }) => [line, rule])).toEqual([[3, 'bad_encoding']]);
      expect(await ctx.rows(`select address, buyer_name, line::int as line from sales order by line`)).toEqual([
        { address: '1 ELM ST', buyer_name: 'SMITH, JOHN', line: 2 }, { address: '3 ELM ST', buyer_name: 'LEE, AL', line: 4 }]);
    } finally { ctx.close(); }
  });

  test('CRLF line endings: every row lands with its exact values (no carriage return in the last column)', async () => {
    const lines = [HEADER, sale({ address: '1 ELM ST', lng: '-122.31' }), sale({ address: '2 ELM ST', lng: '-122.32', seller_name: 'PLAIN' })];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\r\n') + '\r\n' }));
    try {
      expect(await rejectsOf(ctx)).toEqual([]);
      expect(await ctx.rows(`select address, lng, seller_name, line::int as line from sales order by line`)).toEqual([
        { address: '1 ELM ST', lng: -122.31, seller_name: 'DOE, JANE', line: 2 }, { address: '2 ELM ST', lng: -122.32, seller_name: 'PLAIN', line: 3 }]);
    } finally { ctx.close(); }
  });

  test('a 3,000-character field and a 1e400 price are rejected by name with their column and value; nothing else moves', async () => {
    const long = `5 ${'LONG'.repeat(750)}`.slice(0, 3000);
    const lines = [HEADER, sale({ address: '1 ELM ST' }), sale({ address: long }), sale({ address: '3 ELM ST', sale_price: '1e400' }),
      sale({ address: '4 ELM ST', sale_price: 'NaN' }), sale({ address: '5 ELM ST', sale_price: '"1,000"' }), sale({ address: '6 ELM ST', sale_price: '0' }),
      sale({ address: '7 ELM ST', sale_price: '510000' })];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      expect(await rejectsOf(ctx)).toEqual([
        { stage: 'intermediate', line: 3, rule: 'too_long', column: 'address', value: `${long.slice(0, 200)}... (3000 characters)` },
        { stage: 'intermediate', line: 4, rule: 'out_of_range', column: 'sale_price', value: '1e400' },
        { stage: 'intermediate', line: 5, rule: 'not_a_number', column: 'sale_price', value: 'NaN' },
        { stage: 'intermediate', line: 6, rule: 'not_a_number', column: 'sale_price', value: '1,000' },
        { stage: 'intermediate', line: 7, rule: 'out_of_range', column: 'sale_price', value: '0' },
      ]);
      expect(await ctx.rows(`select address, sale_price, line::int as line from sales order by line`)).toEqual([
        { address: '1 ELM ST', sale_price: 500000, line: 2 }, { address: '7 ELM ST', sale_price: 510000, line: 8 }]);
    } finally { ctx.close(); }
  });

  test('an unclosed quote rejects its own line only: the quoted "LAST, FIRST" names after it land in their columns', async () => {
    const lines = [HEADER, sale({ address: '1 ELM ST' }), sale({ address: '2 ELM ST', city: '"SEATTLE' }),
      sale({ address: '3 ELM ST', buyer_name: '"LEE, AL"' }), sale({ address: '4 ELM ST', buyer_name: '"O""NEIL, PAT"' }), sale({ address: '5 ELM ST' })];
    const text = lines.join('\n') + '\n';
    for (const [name, body] of [['sales.csv', text], ['sales.csv.gz', zlib.gzipSync(text)]] as const) {
      const { ctx } = await load(canonicalSources({ [name]: body }));
      try {
        expect(await rejectsOf(ctx), name).toEqual([{ stage: 'sources', line: 3, rule: 'unclosed_quote', column: null, value: lines[2] }]);
        expect(await ctx.rows(`select address, city, buyer_name, seller_name, line::int as line from sales order by line`), name).toEqual([
          { address: '1 ELM ST', city: 'Seattle', buyer_name: 'SMITH, JOHN', seller_name: 'DOE, JANE', line: 2 },
          { address: '3 ELM ST', city: 'Seattle', buyer_name: 'LEE, AL', seller_name: 'DOE, JANE', line: 4 },
          { address: '4 ELM ST', city: 'Seattle', buyer_name: 'O"NEIL, PAT', seller_name: 'DOE, JANE', line: 5 },
          { address: '5 ELM ST', city: 'Seattle', buyer_name: 'SMITH, JOHN', seller_name: 'DOE, JANE', line: 6 },
        ]);
      } finally { ctx.close(); }
    }
    // no quote after it until the end of the file: read as one CSV value, the rest of the file would be swallowed
    const tail = [HEADER, sale({ address: '1 ELM ST', buyer_name: 'LEE AL', seller_name: 'DOE JANE' }), sale({ address: '2 ELM ST', city: '"SEATTLE', buyer_name: 'X', seller_name: 'Y' }),
      sale({ address: '3 ELM ST', buyer_name: 'KIM SO', seller_name: 'DOE JANE' }), sale({ address: '4 ELM ST', buyer_name: 'ORTIZ LU', seller_name: 'DOE JANE' })];
    const { ctx } = await load(canonicalSources({ 'sales.csv': tail.join('\n') + '\n' }));
    try {
      expect((await rejectsOf(ctx)).map(({ line, rule }) => [line, rule])).toEqual([[3, 'unclosed_quote']]);
      expect(await ctx.rows(`select address, buyer_name, line::int as line from sales order by line`)).toEqual([
        { address: '1 ELM ST', buyer_name: 'LEE AL', line: 2 }, { address: '3 ELM ST', buyer_name: 'KIM SO', line: 4 }, { address: '4 ELM ST', buyer_name: 'ORTIZ LU', line: 5 }]);
    } finally { ctx.close(); }
  });

  test('a line with too many or too few fields is a wrong_column_count reject; the lines around it keep their line numbers', async () => {
    const lines = [HEADER, sale({ address: '1 ELM ST' }), `${sale({ address: '2 ELM ST' })},EXTRA`, '3 ELM ST,SEATTLE,WA', sale({ address: '4 ELM ST' })];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      expect((await rejectsOf(ctx)).map(({ stage, line, rule }) => [stage, line, rule])).toEqual([['sources', 3, 'wrong_column_count'], ['sources', 4, 'wrong_column_count']]);
      expect(await ctx.rows(`select address, line::int as line from sales order by line`)).toEqual([{ address: '1 ELM ST', line: 2 }, { address: '4 ELM ST', line: 5 }]);
    } finally { ctx.close(); }
  });

  test('an empty or UTF-16 file of a public source fails the build naming it too', async () => {
    const dir = tmp('reii-contracts-src-');
    fs.mkdirSync(path.join(dir, 'louisville-metro-lien-foreclosures'));
    fs.writeFileSync(path.join(dir, 'louisville-metro-lien-foreclosures', 'foreclosures.csv.gz'), zlib.gzipSync(''));
    const err = await load(dir).then((l) => { l.ctx.close(); return null; }, (e: unknown) => e);
    expect((err as Error).message).toBe('stage sources failed in louisville-metro-lien-foreclosures/foreclosures.csv.gz: the file is empty (0 bytes): a CSV file needs at least its header line');
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('the canonical format, row by row', () => {
  test('each rule of the format, with its column and value; every data line is a sale or a reject', async () => {
    const lines = [HEADER,
      sale({ address: '1 OK ST' }),                                   // 2 ok
      sale({ address: '' }),                                          // 3 missing_value address
      sale({ address: '3 A ST', zip: '9810' }),                       // 4 bad_zip (never padded)
      sale({ address: '4 A ST', state: 'Washington' }),               // 5 unknown_state (not two letters)
      sale({ address: '5 A ST', sale_date: '01/05/2024' }),           // 6 not_a_date
      sale({ address: '6 A ST', beds: 'three' }),                     // 7 not_a_number beds
      sale({ address: '7 A ST', sqft: '-5' }),                        // 8 out_of_range sqft
      sale({ address: '8 A ST', property_type: 'castle' }),           // 9 not_in_list property_type
      sale({ address: '9 A ST', condition: 'great' }),                // 10 not_in_list condition
      sale({ address: '10 A ST', city: 'X'.repeat(101) }),            // 11 too_long city
      sale({ address: '11 A ST', buyer_name: 'B'.repeat(201) }),      // 12 too_long buyer_name
      sale({ address: '12 A ST', lat: 'north' }),                     // 13 not_a_number lat
      sale({ address: '13 A ST', beds: '', baths: '', sqft: '', year_built: '', condition: '', lat: '', lng: '', buyer_name: '', seller_name: '' }), // 14 ok
    ];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      const got = await rejectsOf(ctx);
      expect(got.map(({ line, rule, column, value }) => [line, rule, column, value])).toEqual([
        [3, 'missing_value', 'address', ''], [4, 'bad_zip', 'zip', '9810'], [5, 'unknown_state', 'state', 'Washington'],
        [6, 'not_a_date', 'sale_date', '01/05/2024'], [7, 'not_a_number', 'beds', 'three'], [8, 'out_of_range', 'sqft', '-5'],
        [9, 'not_in_list', 'property_type', 'castle'], [10, 'not_in_list', 'condition', 'great'], [11, 'too_long', 'city', 'X'.repeat(101)],
        [12, 'too_long', 'buyer_name', 'B'.repeat(200) + '... (201 characters)'], [13, 'not_a_number', 'lat', 'north'],
      ]);
      const kept = await ctx.rows<{ line: number }>(`select line::int as line from sales order by line`);
      expect(kept.map((r) => r.line)).toEqual([2, 14]);
      expect(kept.length + got.length).toBe(lines.length - 1);
    } finally { ctx.close(); }
  });

  test('parcels, permits and distress: the same kinds of rules with their own columns', async () => {
    const { ctx } = await load(canonicalSources({
      'parcels.csv': 'address,city,state,zip,property_type,beds,baths,sqft,year_built,lat,lng,owner_name\n1 A ST,SEATTLE,WA,98101,sfr,3,2,1500,1990,47.6,-122.3,"SMITH, JOHN"\n2 A ST,SEATTLE,WA,98101,sfr,3,2,1e400,1990,47.6,-122.3,\n',
      'permits.csv': 'address,zip,issue_date,permit_type,valuation,lat,lng,permit_id\n1 A ST,98101,2024-01-02,renovation,5000,,,P1\n2 A ST,98101,2024-01-02,remodel,5000,,,P2\n3 A ST,98101,2024-01-02,repair,5000,,,P1\n',
      'distress.csv': 'address,city,state,zip,kind,filing_date,amount\n1 A ST,SEATTLE,WA,98101,tax_delinquent,2024-01-02,100\n2 A ST,SEATTLE,WA,98101,tax_delinquent,2024-01-02,-3\n',
    }));
    try {
      const got = await ctx.rows<{ file: string; line: number; rule: string; column_name: string; value: string }>(
        `select regexp_extract(file, '[^/]+$') as file, line::int as line, rule, column_name, value from meta.rejects order by file, line`);
      expect(got).toEqual([
        { file: 'distress.csv', line: 3, rule: 'out_of_range', column_name: 'amount', value: '-3' },
        { file: 'parcels.csv', line: 3, rule: 'out_of_range', column_name: 'sqft', value: '1e400' },
        { file: 'permits.csv', line: 3, rule: 'not_in_list', column_name: 'permit_type', value: 'remodel' },
        { file: 'permits.csv', line: 4, rule: 'duplicate_permit', column_name: 'permit_id', value: 'P1' },
      ]);
      expect(await ctx.rows(`select (select count(*) from parcels)::int as p, (select count(*) from permits)::int as pe, (select count(*) from distress)::int as d, (select owner_name from parcels) as owner`))
        .toEqual([{ p: 1, pe: 1, d: 1, owner: 'SMITH, JOHN' }]);
    } finally { ctx.close(); }
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('row contracts of every source (30_market_44_row_contracts.ts)', () => {
  test('dates against the build clock and 1900, prices and areas against the documented bounds of each type', async () => {
    const bounds = documentedBounds();
    expect([...bounds.keys()].sort()).toEqual(['commercial', 'condo', 'land', 'multi', 'sfr']);
    const { ctx } = await load(canonicalSources({ 'sales.csv': `${HEADER}\n` }));
    try {
      await handGeography(ctx);
      // rows as an adapter would insert them (any source): the documented bound itself is inside, just past it is not
      const rows: [string, string, string, number, number | null, string][] = []; // address, type, date, price, sqft, expected
      let n = 0;
      const add = (type: string, date: string, price: number, sqft: number | null, expected: string): void => { rows.push([`${++n} T ST`, type, date, price, sqft, expected]); };
      for (const [type, b] of bounds) {
        add(type, '2024-01-05', b.maxPrice, b.minSqft, 'kept');
        add(type, '2024-01-05', b.maxPrice * 1.01, 1000, 'out_of_range sale_price');
        add(type, '2024-01-05', 300000, b.maxSqft, 'kept');
        add(type, '2024-01-05', 300000, b.maxSqft + 1, 'out_of_range sqft');
        if (b.minSqft > 1) add(type, '2024-01-05', 300000, b.minSqft - 1, 'out_of_range sqft');
      }
      add('sfr', TODAY, 300000, 1000, 'kept');                       // the build's own day
      add('sfr', '2099-01-01', 300000, 1000, 'date_in_future sale_date');
      add('sfr', '1899-12-31', 300000, 1000, 'date_before_1900 sale_date');
      add('sfr', '1900-01-01', 300000, 1000, 'kept');
      add('sfr', '2024-01-05', 0, 1000, 'kept');                     // a recorded $0 transfer: flagged later, not rejected
      add('sfr', '2024-01-05', -1, 1000, 'out_of_range sale_price');
      add('sfr', '2024-01-05', Infinity, 1000, 'out_of_range sale_price');
      await ctx.db.run(`insert into sales by name select * from (values ${rows.map(([a, t, d, p, s], i) =>
        `('x:${i}', 'anysource', '${a}', 'Seattle', 'WA', '98101', date '${d}', ${Number.isFinite(p) ? p : `'infinity'::double`}, '${t}', ${s ?? 'null'}, true, '/data/x.csv', ${i + 2})`).join(', ')})
        t(sale_id, source, address, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, file, line)`);
      await ctx.db.run(`insert into meta.source_files values ('anysource', 'sales', 'x.csv', 'x', 0, ${rows.length})`);
      await rowContracts({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 1 } });
      const got = await rejectsOf(ctx, `source = 'anysource'`);
      const expected = rows.map(([, , , , , e], i) => ({ line: i + 2, e })).filter((r) => r.e !== 'kept');
      expect(got.map((r) => ({ line: r.line, e: `${r.rule} ${r.column}` }))).toEqual(expected);
      const kept = await ctx.rows<{ line: number }>(`select line::int as line from sales order by line`);
      expect(kept.map((r) => r.line)).toEqual(rows.map((_, i) => i + 2).filter((l) => rows[l - 2]![5] === 'kept'));
    } finally { ctx.close(); }
  });

  test('states, zips and coordinates against the geography: unknown_state, unknown_zip, zip_not_in_state, outside_state', async () => {
    const lines = [HEADER,
      sale({ address: '1 OK ST' }),                                               // 2 ok: 98101 WA, inside WA's box
      sale({ address: '2 A ST', state: 'ZZ' }),                                   // 3 unknown_state
      sale({ address: '3 A ST', zip: '98199' }),                                  // 4 unknown_zip (not in the hand zips)
      sale({ address: '4 A ST', state: 'CA', lat: '38.6', lng: '-121.4' }),        // 5 zip_not_in_state: 98101 is WA
      sale({ address: '5 A ST', state: 'OR', zip: '99362', lat: '', lng: '' }),   // 6 ok: HUD puts 99362 in Oregon too
      sale({ address: '6 A ST', lat: '45.60', lng: '-120.0' }),                   // 7 ok: inside WA's box (45.56 = 46.06 - 0.5)
      sale({ address: '7 A ST', lat: '45.50', lng: '-120.0' }),                   // 8 outside_state: 45.50 < 46.06 - 0.5 = 45.56
      sale({ address: '8 A ST', lat: '48.0', lng: '-116.90' }),                   // 9 outside_state: -116.90 > -117.43 + 0.5 = -116.93
      sale({ address: '9 A ST', lat: '91', lng: '-120.0' }),                      // 10 out_of_range lat
      sale({ address: '10 A ST', sale_date: '2099-06-01' }),                      // 11 date_in_future
    ];
    const { ctx } = await load(canonicalSources({
      'sales.csv': lines.join('\n') + '\n',
      'permits.csv': 'address,zip,issue_date,permit_type,valuation,lat,lng\n1 A ST,98101,2024-01-02,renovation,5000,47.6,-122.3\n2 A ST,98101,2024-01-02,renovation,5000,38.6,-121.4\n3 A ST,98101,2024-01-02,renovation,6000000000,,\n',
    }));
    try {
      await handGeography(ctx);
      await rowContracts({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 1 } });
      const got = await ctx.rows<{ file: string; line: number; rule: string; column_name: string; value: string }>(
        `select regexp_extract(file, '[^/]+$') as file, line::int as line, rule, column_name, value from meta.rejects order by file, line`);
      expect(got).toEqual([
        { file: 'permits.csv', line: 3, rule: 'outside_state', column_name: 'lat,lng', value: '38.6,-121.4 (WA)' },
        { file: 'permits.csv', line: 4, rule: 'out_of_range', column_name: 'valuation', value: '6000000000.0' },
        { file: 'sales.csv', line: 3, rule: 'unknown_state', column_name: 'state', value: 'ZZ' },
        { file: 'sales.csv', line: 4, rule: 'unknown_zip', column_name: 'zip', value: '98199' },
        { file: 'sales.csv', line: 5, rule: 'zip_not_in_state', column_name: 'zip', value: '98101 (state CA)' },
        { file: 'sales.csv', line: 8, rule: 'outside_state', column_name: 'lat,lng', value: '45.5,-120.0 (WA)' },
        { file: 'sales.csv', line: 9, rule: 'outside_state', column_name: 'lat,lng', value: '48.0,-116.9 (WA)' },
        { file: 'sales.csv', line: 10, rule: 'out_of_range', column_name: 'lat', value: '91.0' },
        { file: 'sales.csv', line: 11, rule: 'date_in_future', column_name: 'sale_date', value: '2099-06-01' },
      ]);
      expect((await ctx.rows<{ line: number }>(`select line::int as line from sales order by line`)).map((r) => r.line)).toEqual([2, 6, 7]);
      // the boxes: each state's ZIP centroid extent and 0.5 degree on each side (hand-computed from the zips above)
      expect(await ctx.rows(`select state_code, round(min_lat, 2) as a, round(max_lat, 2) as b, round(min_lng, 2) as c, round(max_lng, 2) as d from int_contract_state_boxes where state_code = 'WA'`))
        .toEqual([{ state_code: 'WA', a: 45.56, b: 48.16, c: -122.83, d: -116.93 }]);
    } finally { ctx.close(); }
  });

  test('without the geography the reference rules are skipped with a warning; the others still apply', async () => {
    const { ctx, warnings } = await load(canonicalSources({ 'sales.csv': [HEADER, sale({ state: 'ZZ' }), sale({ address: '2 A ST', sale_date: '2099-01-01' })].join('\n') + '\n' }));
    try {
      await rowContracts({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 1 } });
      expect(warnings.some((w) => w.includes('no geography'))).toBe(true);
      expect((await rejectsOf(ctx)).map(({ line, rule }) => [line, rule])).toEqual([[3, 'date_in_future']]);
    } finally { ctx.close(); }
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('meta.rejects and the reject-share gate', () => {
  async function gateContext(): Promise<TestContext> {
    const ctx = await makeContext({ now: PINNED_NOW });
    await ctx.db.run(`insert into meta.source_files values ('canonical', 'sales', 'canonical/sales.csv', 'x', 0, 98), ('allegheny', 'foreclosures', 'allegheny/f.csv', 'x', 0, 100)`);
    return ctx;
  }
  const reject = (source: string, file: string, line: number, rule: string, stage = 'intermediate', detail = 'sale_date=2099-01-01'): string =>
    `('${stage}', '${source}', '${file}', ${line}, '${rule}', '${detail}')`;

  test('a file over the share fails the stage naming the file, its share and its top rules; at the share it passes', async () => {
    const ctx = await gateContext();
    try {
      // canonical/sales.csv: 98 loaded rows + 2 lines the parser refused = 100 rows; 5 contract lines = 5% (passes)
      await ctx.db.run(`insert into meta.rejects values
        ${reject('canonical', '/src/canonical/sales.csv', 3, 'unclosed_quote', 'sources', '=x')}, ${reject('canonical', '/src/canonical/sales.csv', 9, 'wrong_column_count', 'sources', '=x')},
        ${reject('canonical', '/src/canonical/sales.csv', 4, 'date_in_future')}, ${reject('canonical', '/src/canonical/sales.csv', 5, 'date_in_future')},
        ${reject('canonical', '/src/canonical/sales.csv', 6, 'out_of_range', 'intermediate', 'sale_price=1e400')},
        -- the same line rejected from two tables counts once; rows dropped for another reason never count
        ${reject('canonical', '/src/canonical/sales.csv', 6, 'outside_state', 'intermediate', 'lat,lng=1,1 (WA)')},
        ${Array.from({ length: 60 }, (_, i) => reject('allegheny', '/src/allegheny/f.csv', i + 2, 'merged_docket_event', 'intermediate', 'x')).join(', ')}`);
      const files = await checkRejectShare(ctx);
      expect(files.map((f) => [f.file, f.rows, f.rejected, f.share])).toEqual([['canonical/sales.csv', 100, 5, 0.05]]);
      // one more line breaking the contract: 6 of 100 > 5%
      await ctx.db.run(`insert into meta.rejects values ${reject('canonical', '/src/canonical/sales.csv', 7, 'date_in_future')}`);
      const err = await checkRejectShare(ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StageError);
      expect((err as StageError).exitCode).toBe(3);
      expect((err as Error).message).toMatch(/^stage intermediate failed in canonical\/sales\.csv: 6% of its rows were rejected \(6 of 100\), more than the 5% allowed \(REII_REJECT_MAX_SHARE\); top reasons: date_in_future \(sale_date\) 3, out_of_range \(sale_price\) 1, outside_state \(lat,lng\) 1 /);
      // the limit is a setting
      expect((await checkRejectShare({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 0.1 } })).map((f) => f.rejected)).toEqual([6]);
    } finally { ctx.close(); }
  });

  test('the table is defined once: its columns, the generated ones read from the detail, and a warehouse with the old table migrated', async () => {
    const inst = await DuckDBInstance.create(':memory:');
    const db = await inst.connect();
    try {
      await db.run(REJECTS_DDL_BEFORE_CONTRACTS);
      await db.run(`insert into meta.rejects values ('intermediate', 'nyc', '/d/nyc.csv', 3, 'zero_price', 'price=0')`);
      await ensureRejectsTable(db);
      await db.run(`insert into meta.rejects select 'intermediate', 'canonical', '/d/sales.csv', 4, 'out_of_range', reject_detail('sale_price', '1e400')`);
      const rows = (await db.runAndReadAll(`select * from meta.rejects order by line`)).getRowObjectsJson();
      expect(rows).toEqual([
        { stage: 'intermediate', source: 'nyc', file: '/d/nyc.csv', line: '3', rule: 'zero_price', detail: 'price=0', column_name: 'price', value: '0', breaks_contract: false, reason: 'zero_price' },
        { stage: 'intermediate', source: 'canonical', file: '/d/sales.csv', line: '4', rule: 'out_of_range', detail: 'sale_price=1e400', column_name: 'sale_price', value: '1e400', breaks_contract: true, reason: 'out_of_range' },
      ]);
      // a fresh warehouse gets the same columns, in the same order (every step inserts the first six by position)
      const fresh = await DuckDBInstance.create(':memory:');
      const fdb = await fresh.connect();
      await fdb.run(REJECTS_DDL);
      const columns = async (c: typeof db): Promise<unknown[]> => (await c.runAndReadAll(`select column_name from duckdb_columns() where table_name = 'rejects' order by column_index`)).getRows();
      expect(await columns(db)).toEqual(await columns(fdb));
      expect((await columns(fdb)).flat()).toEqual(['stage', 'source', 'file', 'line', 'rule', 'detail', 'column_name', 'value', 'breaks_contract', 'reason']);
      fdb.closeSync(); fresh.closeSync();
    } finally { db.closeSync(); inst.closeSync(); }
  });
});

// ---------------------------------------------------------------------------------------------------------------

/** The goal: a poisoned canonical sales.csv changes nothing a client sees. */
describe('a poisoned canonical sales.csv among real sales', () => {
  const GEO = ['simplemaps-uscities', 'usgeo-census-tables', 'census-gazetteer-2025', 'census-cbsa-delineation-2023', 'census-acs2023-population',
    'geonames-us-postal-codes', 'hud-usps-zip-county-crosswalk', 'usps-zip-locale-detail', 'us-zip-reference'];
  // the market steps and the geography they read (as `npm run bench` builds the market): nothing else feeds the market marts
  const FILTER = ['market', 'comps', 'rehab', 'investor', 'canonical', 'geo', 'simplemaps', 'usgeo', 'gazetteer', 'cbsa_delineation', 'acs_population', 'geonames', 'hud_crosswalk', 'usps_locale', 'zip_reference'].join(',');
  const LAST = ['SMITH', 'NGUYEN', 'GARCIA', "O'BRIEN", 'LEE', 'PATEL', 'KOWALSKI', 'JOHNSON'];
  const FIRST = ['JOHN', 'MARIA', 'WEI', 'ANA', 'SAM', 'PRIYA'];
  const csvField = (s: string): string => (/[",]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

  interface Good { line: number; address: string; zip: string; date: string; price: number; buyer: string }
  let good: Good[];
  let poison: { line: number; rule: string; column: string | null; value: (v: string | null) => boolean }[];
  let dirGood: string;
  let dirPoisoned: string;
  let manifestPoisoned: Manifest;

  beforeAll(async () => {
    // Real Sacramento sales (read in place), written in the canonical format with "LAST, FIRST" buyers and sellers.
    const inst = await DuckDBInstance.create(':memory:');
    const db = await inst.connect();
    const raw = (await db.runAndReadAll(`
      select street, city, zip::varchar as zip, state, beds::varchar as beds, baths::varchar as baths, sq__ft::varchar as sqft,
             case type when 'Residential' then 'sfr' when 'Condo' then 'condo' else 'multi' end as type,
             sale_date_iso::varchar as d, price::int as price, latitude::varchar as lat, longitude::varchar as lng
      from read_csv('${SHARED}/sacramento-real-estate-transactions/sacramento_transactions.csv.gz')
      where type in ('Residential', 'Condo', 'Multi-Family') and price >= 30000 and sq__ft > 0 and beds > 0`)).getRowObjectsJson() as Record<string, string>[];
    db.closeSync(); inst.closeSync();
    expect(raw.length).toBeGreaterThan(700);
    // the last 20 sales name their parties without a comma (no quotes): an unclosed quote before them would swallow them all
    const plain = (i: number): boolean => i >= raw.length - 20;
    const buyerOf = (i: number): string => {
      const name = i % 9 === 0 ? 'RIVER CITY HOMES, LLC' : `${LAST[i % LAST.length]}, ${FIRST[i % FIRST.length]}`;
      return plain(i) ? name.replace(',', '') : name;
    };
    const row = (r: Record<string, string>, i: number, o: Partial<Record<string, string>> = {}): string => {
      const v = { address: r['street']!, city: r['city']!, state: r['state']!, zip: r['zip']!, date: r['d']!, price: String(r['price']), ...o };
      const buyer = buyerOf(i);
      const seller = `${LAST[(i + 3) % LAST.length]}${plain(i) ? '' : ','} ${FIRST[(i + 1) % FIRST.length]}`;
      return [v.address, v.city, v.state, v.zip, v.date, v.price, r['type'], r['beds'], r['baths'], r['sqft'], '', '', r['lat'], r['lng'], buyer, seller].map((x) => csvField(String(x))).join(',');
    };
    const goodLines = raw.map((r, i) => row(r, i));
    // Each poisoned row copies a good row of the busiest zip (so, landed, it would move that market) and breaks one rule.
    const perZip = new Map<string, Record<string, string>[]>();
    for (const r of raw) perZip.set(r['zip']!, [...(perZip.get(r['zip']!) ?? []), r]);
    const busiest = [...perZip.values()].sort((a, b) => b.length - a.length)[0]![0]!;
    const quoteLine = row(busiest, 5, { address: '5 ZQXQUOTE ST' }).replace(`,${busiest['city']},`, `,"${busiest['city']},`); // an unclosed quote
    const tailQuoteLine = row(busiest, raw.length - 1, { address: '6 ZQXTAILQUOTE ST' }).replace(`,${busiest['city']},`, `,"${busiest['city']},`);
    const poisonLines: [string, Omit<(typeof poison)[number], 'line'>][] = [
      [row(busiest, 1, { address: '1 ZQXFUTURE ST', date: '2099-06-01' }), { rule: 'date_in_future', column: 'sale_date', value: (v) => v === '2099-06-01' }],
      [row(busiest, 2, { address: '2 ZQXPRICE ST', price: '1e400' }), { rule: 'out_of_range', column: 'sale_price', value: (v) => v === '1e400' }],
      [row(busiest, 3, { address: '3 ZQXSTATE ST', state: 'ZZ' }), { rule: 'unknown_state', column: 'state', value: (v) => v === 'ZZ' }],
      [row(busiest, 4, { address: `4 ZQX${'LONG'.repeat(800)}`.slice(0, 3000) }), { rule: 'too_long', column: 'address', value: (v) => v!.startsWith('4 ZQXLONG') && v!.endsWith('... (3000 characters)') }],
      [quoteLine, { rule: 'unclosed_quote', column: null, value: (v) => v!.startsWith(`5 ZQXQUOTE ST,"${busiest['city']},CA,`) }],
      [tailQuoteLine, { rule: 'unclosed_quote', column: null, value: (v) => v!.startsWith(`6 ZQXTAILQUOTE ST,"${busiest['city']},CA,`) }],
    ];
    // the poison goes in at fixed places among the good rows, the unclosed quote before rows with quoted names
    const at = [10, 200, 400, 600, 50, -20]; // -20: before the last 20 sales
    const poisoned = [...goodLines];
    good = [];
    poison = [];
    for (const [k, [text]] of poisonLines.entries()) poisoned.splice(at[k]!, 0, text);
    for (const [text, expectation] of poisonLines) poison.push({ line: poisoned.indexOf(text) + 2, ...expectation });
    for (const [i, r] of raw.entries()) {
      good.push({ line: poisoned.indexOf(goodLines[i]!) + 2, address: r['street']!, zip: r['zip']!, date: r['d']!, price: Number(r['price']), buyer: buyerOf(i) });
    }
    expect(new Set(goodLines).size).toBe(goodLines.length); // each good line is found once
    expect(poisoned[poisoned.indexOf(quoteLine) + 1]).toContain('"'); // quoted names follow the first unclosed quote
    expect(poisoned.slice(poisoned.indexOf(tailQuoteLine) + 1).join('\n')).not.toContain('"'); // and no quote at all the second

    const sources = (lines: string[]): string => {
      const dir = tmp('reii-contracts-goal-');
      for (const g of GEO) fs.symlinkSync(path.join(SHARED, g), path.join(dir, g));
      fs.mkdirSync(path.join(dir, 'canonical'));
      fs.writeFileSync(path.join(dir, 'canonical', 'sales.csv'), [HEADER, ...lines].join('\n') + '\n');
      return dir;
    };
    const build = async (lines: string[]): Promise<{ dir: string; manifest: Manifest }> => {
      const artifacts = tmp('reii-contracts-art-');
      const r = await runBuild({ settings: loadSettings({ artifacts, sources: sources(lines), stepFilter: FILTER }), log: silentLogger, now: PINNED_NOW, until: 'marts' });
      return { dir: r.dir, manifest: r.manifest };
    };
    dirGood = (await build(goodLines)).dir;
    const p = await build(poisoned);
    dirPoisoned = p.dir;
    manifestPoisoned = p.manifest;
  }, 600_000);

  /** Read-only SQL over both warehouses at once (`good`, `poisoned`). */
  async function both<T>(sql: string): Promise<T[]> {
    const inst = await DuckDBInstance.create(':memory:');
    const db = await inst.connect();
    try {
      await db.run(`attach '${path.join(dirGood, 'warehouse.duckdb')}' as good (read_only); attach '${path.join(dirPoisoned, 'warehouse.duckdb')}' as poisoned (read_only)`);
      return (await db.runAndReadAll(sql)).getRowObjectsJson() as T[];
    } finally { db.closeSync(); inst.closeSync(); }
  }

  test('every good row lands, with its values and its quoted "LAST, FIRST" buyer', async () => {
    const sales = await both<{ line: number; sale_date: string; sale_price: number; zip: string; buyer_name: string }>(
      `select line::int as line, sale_date::varchar as sale_date, sale_price, zip, buyer_name from poisoned.sales where source = 'canonical' order by line`);
    expect(sales).toEqual(good.map((g) => ({ line: g.line, sale_date: g.date, sale_price: g.price, zip: g.zip, buyer_name: g.buyer })).sort((a, b) => a.line - b.line));
  });

  test('each poisoned row has its reject (line, rule, column, value), and no other line of the file does', async () => {
    const got = await both<{ line: number; rule: string; column_name: string | null; value: string | null; breaks_contract: boolean }>(
      `select line::int as line, rule, column_name, value, breaks_contract from poisoned.meta.rejects where source = 'canonical' order by line`);
    const expected = [...poison].sort((a, b) => a.line - b.line);
    expect(got.map((r) => [r.line, r.rule, r.column_name, r.breaks_contract])).toEqual(expected.map((p) => [p.line, p.rule, p.column, true]));
    for (const [i, r] of got.entries()) expect(expected[i]!.value(r.value), `${r.rule}: ${r.value}`).toBe(true);
    // the manifest counts them per source and rule, and gives the file's share
    expect(manifestPoisoned.rejects.by_source.filter((r) => r.source === 'canonical').map((r) => [r.rule, r.rows]).sort())
      .toEqual([['date_in_future', 1], ['out_of_range', 1], ['too_long', 1], ['unclosed_quote', 2], ['unknown_state', 1]]);
    expect(manifestPoisoned.rejects.by_file).toEqual([expect.objectContaining({ source: 'canonical', file: 'canonical/sales.csv', rows: good.length + poison.length, rejected: poison.length })]);
    const report = fs.readFileSync(path.join(dirPoisoned, 'report.html'), 'utf8');
    expect(report).toContain('<td>canonical</td><td>unclosed_quote</td><td>yes</td><td>2</td>');
  });

  test('no poisoned value reaches any table of the warehouse that feeds an answer', async () => {
    const cols = await both<{ t: string; c: string; type: string }>(`
      select table_name as t, column_name as c, data_type as type from duckdb_columns()
      where database_name = 'poisoned' and schema_name = 'main' and data_type in ('VARCHAR', 'DATE', 'DOUBLE')
        and table_name in (select table_name from duckdb_tables() where database_name = 'poisoned' and schema_name = 'main')`);
    const tables = new Set(cols.map((c) => c.t));
    expect([...tables]).toEqual(expect.arrayContaining(['sales', 'parcels', 'zips', 'mart_comps', 'mart_rehab', 'mart_investor', 'int_market_resales']));
    const q = (c: { t: string; c: string; type: string }): string =>
      c.type === 'VARCHAR' ? `select '${c.t}.${c.c}' as col, count(*) as n from poisoned.main."${c.t}" where "${c.c}" ilike '%ZQX%'${c.c === 'state_code' ? ` or "${c.c}" = 'ZZ'` : ''}`
        : c.type === 'DATE' ? `select '${c.t}.${c.c}', count(*) from poisoned.main."${c.t}" where "${c.c}" > date '${TODAY}'`
          : `select '${c.t}.${c.c}', count(*) from poisoned.main."${c.t}" where isinf("${c.c}")`;
    const hits = await both<{ col: string; n: number }>(`select * from (${cols.map(q).join(' union all ')}) where n > 0`);
    expect(hits).toEqual([]);
  });

  test('no market figure and no as_of changes: the market marts of the two builds are the same rows', async () => {
    for (const mart of ['mart_comps', 'mart_rehab', 'mart_investor']) {
      // doubles compared to 9 significant digits: a sum over parallel threads may differ in its last bit between builds
      const cols = await both<{ c: string; type: string }>(`select column_name as c, data_type as type from duckdb_columns()
        where database_name = 'poisoned' and schema_name = 'main' and table_name = '${mart}' order by column_index`);
      const list = cols.map((x) => (x.type === 'DOUBLE' ? `case when "${x.c}" = 0 then 0 else round("${x.c}", 9 - ceil(log10(abs("${x.c}")))::int) end as "${x.c}"` : `"${x.c}"`)).join(', ');
      const [d] = await both<{ only_good: number; only_poisoned: number; rows: number }>(`select
          (select count(*) from (select ${list} from good.${mart} except all select ${list} from poisoned.${mart}))::int as only_good,
          (select count(*) from (select ${list} from poisoned.${mart} except all select ${list} from good.${mart}))::int as only_poisoned,
          (select count(*) from poisoned.${mart})::int as rows`);
      expect(d, mart).toEqual({ only_good: 0, only_poisoned: 0, rows: expect.any(Number) });
      expect(d!.rows, mart).toBeGreaterThan(0);
    }
    // the markets are dated by their latest real sale (read off the file), never by the 2099 row
    const latest = good.map((g) => g.date).sort().at(-1)!;
    expect(await both(`select max(as_of)::varchar as as_of, max(window_end)::varchar as window_end from poisoned.mart_comps`)).toEqual([{ as_of: latest, window_end: latest }]);
  });
});
