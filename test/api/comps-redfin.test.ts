// The comps answer's Redfin figures against the raw Redfin file (review of build 20261129T045227759Z-e70dbe): zip 06414
// (East Hampton, CT) answered days_on_market.median 58 and list_to_sale_ratio 1.0 for sfr, condo and multi and every
// window, from the file's one row of 06414 that describes a type: All Residential, 1 home sold, the 90 days to 2024-01-31,
// after the window's end (2023-09-27), and an average sale-to-list, not the median the field is. The rule
// (warehouse/docs/market.md "Days on market / list-to-sale"): a Redfin row stands for a window only when its 90 days lie
// inside it, its recorded type is the type or All Residential, and 5 or more homes sold; the ratio never comes from
// Redfin. Read here straight from the raw file with DuckDB, never from the warehouse.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

const FILE = path.join(SHARED_DATA, 'redfin-zip-market-snapshots', 'redfin_zip_latest_2025-05_to_2025-09.csv.gz');
interface Raw { period_end: string; start: string; property_type: string | null; homes_sold: number | null; median_dom: number | null }
interface Comps { days_on_market: { median: number | null; source: string | null; redfin: unknown }; list_to_sale_ratio: number | null; note: string | null;
  coverage: { window_start: string; window_end: string } }

let srv: TestServer;
let key: string;
let raw: Raw[];

beforeAll(async () => {
  srv = await startTestServer(artifactsDir());
  key = srv.key('builder', 100_000);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const reader = await conn.runAndReadAll(`
    select strftime(try_cast(period_end as date), '%Y-%m-%d') as period_end,
           strftime(date_trunc('month', try_cast(period_end as date)) - interval 2 month, '%Y-%m-%d') as start,
           nullif(property_type, '') as property_type, try_cast(nullif(homes_sold, '') as double) as homes_sold,
           try_cast(nullif(median_dom, '') as double) as median_dom
    from read_csv('${FILE}', all_varchar = true) where zip_code = '06414' order by snapshot_month`);
  raw = reader.getRowObjectsJson() as unknown as Raw[];
  conn.closeSync();
  db.closeSync();
});
afterAll(() => srv.close());

/** Whether a raw row may stand for the window [first, last] of a residential type (the rule, written again here). */
const TYPES: Record<string, string[]> = { 'All Residential': ['sfr', 'condo', 'multi'], 'Single Family Residential': ['sfr'], Townhouse: ['sfr'],
  'Condo/Co-op': ['condo'], 'Multi-Family (2-4 Unit)': ['multi'] };
const stands = (r: Raw, type: string, first: string, last: string): boolean =>
  r.median_dom !== null && (r.homes_sold ?? 0) >= 5 && r.start >= first && r.period_end <= last && (TYPES[r.property_type ?? ''] ?? []).includes(type);

describe('GET /v1/market/comps: a Redfin figure only where it is what the field claims (06414)', () => {
  test('the raw file: 06414\'s only typed row is All Residential, 1 home sold, 2023-11-01..2024-01-31; the others record no type', () => {
    expect(raw.filter((r) => r.property_type !== null)).toEqual([
      { period_end: '2024-01-31', start: '2023-11-01', property_type: 'All Residential', homes_sold: 1, median_dom: 58 }]);
    expect(raw.length).toBe(5);
  });

  test.each(['sfr', 'condo', 'multi'])('%s, every window 3-24 months: days on market and list-to-sale as the raw file allows (none here), and the note says why', async (type) => {
    for (const months of [3, 6, 12, 24]) {
      const res = await srv.get(`/v1/market/comps?zip=06414&property_type=${type}&months=${months}`, key);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Comps;
      const usable = raw.filter((r) => stands(r, type, body.coverage.window_start, body.coverage.window_end));
      expect(usable, `${type} ${months}`).toEqual([]);
      expect(body.days_on_market, `${type} ${months}`).toEqual({ median: null, source: null, redfin: null });
      // Connecticut's sales record no list price, and Redfin's sale-to-list is an average: never the median ratio
      expect(body.list_to_sale_ratio).toBeNull();
      expect(body.note).toContain("no days on market or list-to-sale ratio: fewer than 5 comps of the window record a list date and price, and no Redfin zip snapshot stands for the window");
      expect(body.note).toContain("Redfin's sale-to-list is an average, not a median");
    }
  });

  test('research says the same: no list-to-sale ratio for 06414, not 1.000', async () => {
    const res = await srv.post('/v1/research/query', { query: 'What is the list-to-sale ratio in 06414 over the last 6 months?' }, srv.key('pro', 100_000));
    expect(res.status).toBe(200);
    const text = JSON.stringify(await res.json());
    expect(text).not.toMatch(/list-to-sale ratio (is )?1\.000/);
    expect(text).toContain('Redfin zip snapshots give an average sale-to-list, not a median');
  });
});
