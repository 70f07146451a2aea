// Review 17 H: a known place typed in a query is a place, never a typo of a street word, and a zip is never another
// zip. Before: "seattle" answered 71 SETTLERS KN (Newington, CT) and 8140 SETTLERS WAY (Nashville) by a typo; "main st
// 06830" answered addresses in 06840 and 06890; "broadway manhattan" answered [] (a one-word street before a borough
// was no place reading); "west hartford" answered Hartford's 17 MORNINGSIDE ST WEST; "main st wash." Nashville's Main
// St (WASH -> NASH). Over the shared build's index; Manhattan's addresses checked against the raw rolling sales.
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { AutocompleteEngine } from '../../../live/autocomplete/endpoint.ts';
import type { AddressMatch } from '../../../live/autocomplete/index-search.ts';
import { normalizeAddress } from '../../../warehouse/address.ts';

let engine: AutocompleteEngine;
let manhattan: Set<string>;
beforeAll(async () => {
  engine = AutocompleteEngine.fromDir(path.join(buildDir(), 'live', 'autocomplete'), 60_000);
  // every street line and zip of the raw NYC rolling sales on BROADWAY in Manhattan (BOROUGH 1)
  const rows = await rawQuery<{ address: string; zip: string }>(`
    select distinct trim(split_part("ADDRESS", ',', 1)) as address, trim("ZIP CODE") as zip
    from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)
    where trim("BOROUGH") = '1' and "ADDRESS" ilike '%BROADWAY%'`);
  manhattan = new Set(rows.map((r) => `${normalizeAddress(r.address).street}|${r.zip}`));
}, 120_000);

const ask = (q: string, limit = 5): AddressMatch[] => {
  const a = engine.answer({ q, limit });
  if (!a.ok) throw new Error(a.message);
  return (a.body as { results: AddressMatch[] }).results;
};
const line = (m: AddressMatch): string => `${m.address}, ${m.city} ${m.state} ${m.zip}`;

describe('a known place or a zip is never typo-corrected; a borough filters', () => {
  test('"seattle" is no typo of SETTLERS: only addresses of Seattle (the build indexes none there)', () => {
    for (const m of ask('seattle')) expect(m.city, line(m)).toBe('Seattle');
  });

  test('"main st 06830": only addresses in zip 06830, never 06840 or 06890', () => {
    for (const m of ask('main st 06830', 10)) expect(m.zip, line(m)).toBe('06830');
  });

  test('"broadway manhattan" answers BROADWAY addresses the raw rolling sales place in Manhattan (borough 1)', () => {
    const got = ask('broadway manhattan');
    expect(got.length).toBeGreaterThan(0);
    for (const m of got) expect(manhattan.has(`${m.address.split(' UNIT ')[0]}|${m.zip}`), line(m)).toBe(true);
  });

  test('"west hartford" answers no Hartford address with WEST after its street', () => {
    for (const m of ask('west hartford', 10)) expect(m.city === 'West Hartford' || m.address.startsWith('WEST HARTFORD') || / WEST HARTFORD /.test(` ${m.address} `), line(m)).toBe(true);
  });

  test('"main st wash." is no typo of NASH: no Nashville address', () => {
    for (const m of ask('main st wash.', 10)) expect(m.city, line(m)).not.toBe('Nashville');
  });
});
