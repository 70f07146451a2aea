// The property record reads a canonical sales.csv's lot_sqft (review r21 #5): NYC's 2 DREYER AVENUE (10314) written as
// the operator's county records (scripts/canonical-sales.ts writes LAND SQUARE FEET as lot_sqft) answered lot_sqft
// null on GET /v1/property, while its valuation used the file's 1073 as a record fact. A small canonical folder (the
// raw NYC row of that house, plus two houses of no lot: an empty lot and a lot of 0) through a real build until the
// marts, over the real geography (symlinks into ../shared/data); the expected lot is read from the raw NYC file.
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PINNED_NOW } from '../helpers/clock.ts';
import { canonicalSources, linkGeography, PROPERTY_STEPS } from '../helpers/canonical-sources.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import { runBuild } from '../../pipelines/build.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';

afterAll(removeTmpDirs);

const FILTER = PROPERTY_STEPS.join(',');

async function query<T>(db: string, sql: string): Promise<T[]> {
  const inst = await DuckDBInstance.create(db, db === ':memory:' ? {} : { access_mode: 'READ_ONLY' });
  const c = await inst.connect();
  try { return (await c.runAndReadAll(sql)).getRowObjectsJson() as T[]; } finally { c.closeSync(); inst.closeSync(); }
}

describe('a canonical sales.csv lot_sqft is the property record\'s lot', () => {
  let warehouse: string;
  let raw: Record<string, string>;
  beforeAll(async () => {
    [raw] = await query<Record<string, string>>(':memory:', `select * from read_csv('${path.join(SHARED_DATA, 'nyc-rolling-sales')}/*.csv.gz', all_varchar = true, header = true)
      where ADDRESS = '2 DREYER AVENUE' and trim("ZIP CODE") = '10314'`) as [Record<string, string>];
    const n = (v: string | undefined): string => String(Number(v!.replace(/,/g, '')));
    const sources = canonicalSources({ 'sales.csv': [
      'address,city,state,zip,sale_date,sale_price,property_type,beds,baths,sqft,year_built,condition,lat,lng,lot_sqft',
      [raw['ADDRESS'], 'New York', 'NY', '10314', raw['SALE DATE'], n(raw['SALE PRICE']), 'sfr', '', '', n(raw['GROSS SQUARE FEET']), raw['YEAR BUILT'], '', '', '', n(raw['LAND SQUARE FEET'])].join(','),
      '10 DREYER AVENUE,New York,NY,10314,2023-11-02,610000,sfr,,,1300,1990,,,,',
      '12 DREYER AVENUE,New York,NY,10314,2023-12-04,620000,sfr,,,1350,1990,,,,0',
    ].join('\n') + '\n' });
    linkGeography(sources);
    const artifacts = tmp('reii-canon-lot-art-');
    const r = await runBuild({ settings: loadSettings({ artifacts, sources, stepFilter: FILTER }), log: silentLogger, now: PINNED_NOW, until: 'marts' });
    warehouse = path.join(r.dir, 'warehouse.duckdb');
  }, 600_000);

  test('2 DREYER AVENUE has the file\'s lot, cited at its line; an empty lot and a lot of 0 are none', async () => {
    expect(Number(raw['LAND SQUARE FEET'])).toBe(1073);
    expect(await query(warehouse, `select address, lot_sqft from properties where source = 'canonical' order by address`)).toEqual([
      { address: '10 DREYER AVE', lot_sqft: null }, { address: '12 DREYER AVE', lot_sqft: null }, { address: '2 DREYER AVE', lot_sqft: 1073 }]);
    expect(await query(warehouse, `select l.value::double as value, l.file, l.line::int as line from property_lineage l join properties p using (property_id)
      where p.address = '2 DREYER AVE' and l.field = 'lot_sqft'`)).toEqual([{ value: 1073, file: 'canonical/sales.csv', line: 2 }]);
  });
});
