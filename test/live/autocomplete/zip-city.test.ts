// Autocomplete names an address's city by the warehouse's one rule of a zip's city (int_market_zip_names: the geo zips'
// USPS city; warehouse/docs/market.md, address.md), as comps and valuation do. Review of build e70dbe: 11219 and 10473
// answered "New York" (NYC's rolling-sales file writes New York for every borough) while comps said Brooklyn and Bronx.
// Real addresses from the raw NYC sales file; the borough is the file's own BOROUGH code (2 Bronx, 3 Brooklyn).
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildDir, warehouseRows } from '../../helpers/build.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';
import { AutocompleteEngine } from '../../../live/autocomplete/endpoint.ts';

const BOROUGHS: Record<string, string> = { 1: 'Manhattan', 2: 'Bronx', 3: 'Brooklyn', 4: 'Queens', 5: 'Staten Island' };
interface Raw { address: string; zip: string; borough: string }

let engine: AutocompleteEngine;
let raw: Raw[];
beforeAll(async () => {
  engine = AutocompleteEngine.fromDir(path.join(buildDir(), 'live', 'autocomplete'), 60_000);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const r = await conn.runAndReadAll(`select distinct trim("ADDRESS") as address, trim("ZIP CODE") as zip, trim("BOROUGH") as borough
    from read_csv('${path.join(SHARED_DATA, 'nyc-rolling-sales')}/*.csv.gz', all_varchar = true, union_by_name = true)
    where trim("ADDRESS") in ('1001 65TH STREET', '427 HOWE AVENUE') order by zip`);
  raw = r.getRowObjectsJson() as unknown as Raw[];
  conn.closeSync();
  db.closeSync();
});

const answer = (q: string) => {
  const a = engine.answer({ q, limit: 5 });
  if (a instanceof Promise || !a.ok) throw new Error(`not an answer: ${JSON.stringify(a)}`);
  return (a.body as { results: { address: string; city: string; state: string; zip: string }[] }).results;
};

describe('autocomplete: a zip\'s city is one rule', () => {
  it('1001 65th Street (11219) is Brooklyn and 427 Howe Avenue (10473) Bronx, as comps name those zips', async () => {
    expect(raw).toEqual([{ address: '427 HOWE AVENUE', zip: '10473', borough: '2' }, { address: '1001 65TH STREET', zip: '11219', borough: '3' }]);
    for (const [q, r] of [['1001 65th st', raw[1]!], ['427 howe ave', raw[0]!]] as const) {
      const hit = answer(q).find((x) => x.zip === r.zip);
      expect(hit, q).toBeDefined();
      expect(hit!.city, q).toBe(BOROUGHS[r.borough]);
      const [comps] = await warehouseRows<{ city: string }>(`select distinct city from mart_comps where zip = $zip`, { zip: r.zip });
      expect(hit!.city, q).toBe(comps!.city);
    }
  });

  it('the source\'s own city still finds the address: "1001 65th st, new york"', () => {
    expect(answer('1001 65th st, new york').find((x) => x.zip === '11219')).toMatchObject({ address: '1001 65TH ST', city: 'Brooklyn', state: 'NY' });
  });
});
