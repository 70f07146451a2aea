// Autocomplete recall on a held-out sample of real addresses drawn straight from the raw source files (not from the
// build): Sacramento, Philadelphia and NYC sales (with their beds/baths/sqft), Chicago permits, Connecticut GL sales
// and Nashville permits (no facts, Chicago and Connecticut with no zip). A query is what a person types: the raw
// street line's first two words and half of the third, lower case (for a unit: three words and the unit); then the
// same with one random edit anywhere in it (substitution, deletion, insertion or transposition of a letter or
// digit). A hit is the address itself among the default 5 results: house number, street name, unit, the raw zip
// (or, where the source records none, the raw town with zip "" or its property record's imputed zip marked
// zip_imputed, as address.md says), and its beds, baths and sqft as
// the raw row gives them (<= 0 or blank = null, sqft rounded). Goals (issue 20): >= 98% clean, >= 95% with a typo.
import crypto from 'node:crypto';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { AutocompleteEngine } from '../../../live/autocomplete/endpoint.ts';
import type { AddressMatch } from '../../../live/autocomplete/index-search.ts';

interface Raw { src: string; street: string; unit: string | null; zip: string | null; town: string; beds: number | null; baths: number | null; sqft: number | null }

const PER_SOURCE = 60;
// rows whose street line (and unit and zip) occurs once in its source file, so the build's merged facts are that row's
const once = (sel: string, key: string): string => `select * from (${sel}) where street is not null and regexp_matches(street, '^[0-9][0-9-]* +[A-Z]')
  qualify count(*) over (partition by ${key}) = 1 order by md5(src || street || coalesce(unit, '') || ':held-out') limit ${PER_SOURCE}`;
const pos = (c: string): string => `case when try_cast(${c} as double) > 0 then try_cast(${c} as double) end`;
const clean = (c: string): string => `nullif(trim(regexp_replace(upper(${c}), '\\s+', ' ', 'g')), '')`;

function rawSample(): Promise<Raw[]> {
  const sac = `select 'sacramento' as src, ${clean('street')} as street, null as unit, left(zip, 5) as zip, upper(city) as town,
    ${pos('beds')} as beds, ${pos('baths')} as baths, round(${pos('sq__ft')}) as sqft
    from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
    where try_cast(latitude as double) between 17 and 72`;
  const phl = `select 'philadelphia' as src, ${clean('location')} as street, ${clean('unit')} as unit, left(trim(zip_code), 5) as zip, 'PHILADELPHIA' as town,
    ${pos('number_of_bedrooms')} as beds, ${pos('number_of_bathrooms')} as baths, round(${pos('total_livable_area')}) as sqft
    from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)
    where try_cast(lat as double) is not null`;
  const nyc = `select 'nyc' as src, ${clean(`split_part("ADDRESS", ',', 1)`)} as street,
    coalesce(${clean('"APARTMENT NUMBER"')}, ${clean(`split_part("ADDRESS", ',', 2)`)}) as unit, nullif(trim("ZIP CODE"), '0') as zip,
    'NEW YORK' as town, null as beds, null as baths,
    -- a unit of a building of 2+ units: the gross area is the building's, no living area (review 6 #7)
    case when coalesce(nullif(trim("APARTMENT NUMBER"), ''), nullif(trim(split_part("ADDRESS", ',', 2)), '')) is not null and greatest(coalesce(try_cast(replace("RESIDENTIAL UNITS", ',', '') as integer), 0), coalesce(try_cast(replace("TOTAL UNITS", ',', '') as integer), 0)) > 1 then null
         else round(${pos(`replace("GROSS SQUARE FEET", ',', '')`)}) end as sqft
    from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)`;
  const chi = `select 'chicago' as src, ${clean('address')} as street, null as unit, null as zip, 'CHICAGO' as town, null as beds, null as baths, null as sqft
    from read_csv('${dataFile('chicago-building-permits/chicago_building_permits_2023-01_2026-07.csv.gz')}', all_varchar = true)
    where permit_status not in ('CANCELLED', 'REVOKED') and try_cast(latitude as double) is not null and try_cast(issue_date as date) is not null`;
  const ct = `select 'connecticut' as src, ${clean('"Address"')} as street, null as unit, null as zip, upper(trim("Town")) as town,
    null as beds, null as baths, null as sqft
    from read_csv('${dataFile('connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz')}', all_varchar = true)
    where "Location" like 'POINT%' and "Property Type" = 'Residential' and try_cast("Sale Amount" as double) >= 0`;
  const nash = `select 'nashville' as src, ${clean('"Address"')} as street, null as unit, left(trim("ZIP"), 5) as zip, 'NASHVILLE' as town,
    null as beds, null as baths, null as sqft
    from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true)
    where try_cast("Lat" as double) is not null`;
  const parts = [[sac, 'street, zip'], [phl, 'street, unit'], [nyc, 'street, unit, zip'], [chi, 'street'], [ct, 'street, town'], [nash, 'street, zip']];
  return rawQuery<Raw>(parts.map(([sel, key]) => `(${once(sel!, key!)})`).join(' union all '));
}

/** A raw street line's trailing unit ("11150 TRINITY RIVER DR UNIT 114", "130 HORACE ST #132"): the unit
 *  designators address.md names (APT, APARTMENT, UNIT, STE, SUITE, #, NO). */
const UNIT_TAIL = /\s+(?:APT|APARTMENT|UNIT|STE|SUITE|#|NO)\s*#?\s*([A-Z0-9-]+)$/;
function splitUnit(r: Raw): Raw {
  const m = UNIT_TAIL.exec(r.street);
  return m && !r.unit ? { ...r, street: r.street.slice(0, m.index), unit: m[1]! } : r;
}

const h = (s: string): number => crypto.createHash('md5').update(s).digest().readUInt32LE(0);
const alnum = (s: string | null | undefined): string => (s ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
const wordsOf = (s: string): string[] => s.toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean);
const SUFFIX_WORDS = new Set(['STREET', 'AVENUE', 'BOULEVARD', 'ROAD', 'DRIVE', 'PLACE', 'COURT', 'LANE', 'TERRACE', 'PARKWAY', 'CIRCLE', 'HIGHWAY']);

/** What a person types: the first two words + half of the third (a unit: three words, then the unit), lower case. */
function typed(r: Raw): string {
  const w = r.street.split(' ');
  if (r.unit) return `${w.slice(0, 3).join(' ')} ${r.unit}`.toLowerCase();
  if (w.length >= 3) return `${w[0]} ${w[1]} ${w[2]!.slice(0, Math.ceil(w[2]!.length / 2))}`.toLowerCase();
  return w.join(' ').toLowerCase();
}

/** One random edit at a random letter or digit: substitution, deletion, insertion or transposition (same kind of
 *  character: a letter for a letter, a digit for a digit). */
function withTypo(q: string, seed: number): string {
  const at: number[] = [];
  for (let i = 0; i < q.length; i++) if (/[a-z0-9]/.test(q[i]!)) at.push(i);
  const p = at[seed % at.length]!; const ch = q[p]!;
  const al = /[0-9]/.test(ch) ? '0123456789' : 'abcdefghijklmnopqrstuvwxyz';
  let c = al[(seed >>> 8) % al.length]!; if (c === ch) c = al[(al.indexOf(c) + 1) % al.length]!;
  const next = q[p + 1];
  switch ((seed >>> 4) % 4) {
    case 0: return q.slice(0, p) + c + q.slice(p + 1);
    case 1: return q.slice(0, p) + q.slice(p + 1);
    case 2: return q.slice(0, p) + c + q.slice(p);
    default: return next && /[a-z0-9]/.test(next) && next !== ch ? q.slice(0, p) + next + ch + q.slice(p + 2) : q.slice(0, p) + c + q.slice(p);
  }
}

/** The raw address itself: house number, street name, unit, zip (or town and no zip), and its facts. */
function isHit(m: AddressMatch, r: Raw): boolean {
  const [street, unit] = m.address.split(' UNIT ');
  const got = wordsOf(street!); const want = wordsOf(r.street);
  if (got[0] !== want[0]) return false;
  // the street name: the longest word of letters between the house number and the last word (the street type, which
  // the stored line abbreviates)
  const name = want.slice(1, want.length > 2 ? -1 : undefined).filter((x) => /^[A-Z]{2,}$/.test(x) && !SUFFIX_WORDS.has(x))
    .sort((a, b) => b.length - a.length)[0];
  if (name && !got.includes(name)) return false;
  if (alnum(unit) !== alnum(r.unit)) return false;
  if (r.zip ? m.zip !== r.zip || m.zip_imputed : (m.zip !== '' && !m.zip_imputed) || m.city.toUpperCase() !== r.town) return false;
  return m.beds === r.beds && m.baths === r.baths && m.sqft === r.sqft;
}

describe('autocomplete recall on held-out raw addresses', () => {
  let engine: AutocompleteEngine;
  let sample: Raw[];
  beforeAll(async () => {
    // recall is measured with a budget no busy machine spends: under CI load the 25 ms budget cut typo searches short
    // and the rate fell under its bar (what the budget gives up is tested in autocomplete.test.ts; its speed in the bench)
    engine = AutocompleteEngine.fromDir(path.join(buildDir(), 'live', 'autocomplete'), 60_000);
    sample = (await rawSample()).map(splitUnit);
  }, 120_000);

  const top5 = (q: string): AddressMatch[] => { const a = engine.answer({ q }); return a.ok ? (a.body as { results: AddressMatch[] }).results : []; };
  const rate = (label: string, queries: [Raw, string][]): number => {
    const misses: string[] = [];
    let found = 0;
    for (const [r, q] of queries) if (top5(q).some((m) => isHit(m, r))) found++; else misses.push(`${r.src}: "${q}" -> ${r.street} ${r.unit ?? ''} ${r.zip ?? r.town}`);
    console.log(`autocomplete ${label}: ${found}/${queries.length} = ${(100 * found / queries.length).toFixed(1)}% in the top 5; misses: ${misses.slice(0, 15).join('; ')}`);
    return found / queries.length;
  };

  it('draws the sample from every source with street addresses, facts included', () => {
    expect(new Set(sample.map((r) => r.src))).toEqual(new Set(['sacramento', 'philadelphia', 'nyc', 'chicago', 'connecticut', 'nashville']));
    expect(sample.length).toBeGreaterThanOrEqual(300);
    expect(sample.filter((r) => r.beds !== null && r.sqft !== null).length).toBeGreaterThanOrEqual(60);
    expect(sample.filter((r) => r.unit).length).toBeGreaterThan(5);
  });

  it('finds >= 98% of clean prefixes in the top 5 with their beds/baths/sqft', () => {
    expect(rate('held-out clean', sample.map((r) => [r, typed(r)]))).toBeGreaterThanOrEqual(0.98);
  });

  it('finds >= 95% of prefixes with one random typo in the top 5 with their beds/baths/sqft', () => {
    const queries = sample.map((r): [Raw, string] => [r, withTypo(typed(r), h(`${r.src}|${r.street}|${r.unit ?? ''}`))]);
    expect(queries.every(([r, q]) => q !== typed(r))).toBe(true);
    expect(rate('held-out one typo', queries)).toBeGreaterThanOrEqual(0.95);
  });
});
