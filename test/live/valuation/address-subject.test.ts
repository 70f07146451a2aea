// One rule for "which property is this address" in the valuation and the property record (review: 1372 East 92nd
// Street, Brooklyn, was valued as lot 54's 1899 house of its 2021 sale while the property record answered lot 55, the
// 2022 two-family the 2023-24 file records at that address). Expected values are read from the RAW NYC rolling-sales
// files (csv-parse), over the build through a real server: the address's newest raw sale names the property.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { loadSettings } from '../../../warehouse/settings.ts';

type Raw = Record<string, string>;
const dir = path.join(loadSettings({}).sources, 'nyc-rolling-sales');
const raw: Raw[] = fs.readdirSync(dir).filter((f) => f.endsWith('.csv.gz')).sort()
  .flatMap((f) => parse(zlib.gunzipSync(fs.readFileSync(path.join(dir, f))), { columns: true }) as Raw[]);
/** The raw rows at an address (as the file writes it) in a zip, newest sale first. */
const rowsAt = (address: string, zip: string): Raw[] => raw.filter((r) => r['ADDRESS']!.trim() === address && r['ZIP CODE']!.trim() === zip)
  .sort((a, b) => b['SALE DATE']!.localeCompare(a['SALE DATE']!));
const bbl = (r: Raw): string => `${r['BOROUGH']}-${r['BLOCK']}-${r['LOT']}`;

const api = serveSharedBuild('pro', 100_000);

interface Fact { name: string; value: number | string }
const value = async (zip: string, address: string): Promise<{ subject: { matched: boolean; property_id: string; facts: Fact[] } }> =>
  await (await api.post('/v1/valuation/estimate', { zip, address })).json() as never;
const property = async (zip: string, address: string): Promise<{ property_id: string; parcel_id: string; sqft: number; year_built: number; other_property_ids?: string[] }> =>
  await (await api.get(`/v1/property?${new URLSearchParams({ zip, address })}`)).json() as never;
const fact = (facts: Fact[], name: string): number | string | undefined => facts.find((f) => f.name === name)?.value;

describe('an address that names more than one NYC lot', () => {
  it('1372 EAST 92ND STREET (11236): both endpoints answer the lot of the newest raw sale, with its size and year', async () => {
    const rows = rowsAt('1372 EAST 92ND STREET', '11236');
    expect(new Set(rows.map(bbl)).size).toBe(2); // lot 54 (2021, before redevelopment) and lot 55 (2023)
    const newest = rows[0]!;
    const [v, p] = await Promise.all([value('11236', '1372 EAST 92ND STREET'), property('11236', '1372 EAST 92ND STREET')]);
    expect(p.parcel_id).toBe(bbl(newest));
    expect(p.sqft).toBe(Number(newest['GROSS SQUARE FEET']));
    expect(v.subject.matched).toBe(true);
    expect(v.subject.property_id).toBe(p.property_id);
    expect(fact(v.subject.facts, 'sqft')).toBe(Number(newest['GROSS SQUARE FEET']));
    expect(fact(v.subject.facts, 'year_built')).toBe(Number(newest['YEAR BUILT']));
    // lot 54's property record has its newest address (1370), so the address names one property in the record
    expect(p.other_property_ids).toBeUndefined();
  });

  it('294 GARRETSON AVENUE (10305): the newest sale\'s lot, and the other lot named', async () => {
    const rows = rowsAt('294 GARRETSON AVENUE', '10305');
    expect(new Set(rows.map(bbl)).size).toBe(2);
    const [v, p] = await Promise.all([value('10305', '294 Garretson Ave'), property('10305', '294 Garretson Ave')]);
    expect(p.parcel_id).toBe(bbl(rows[0]!));
    expect(v.subject.property_id).toBe(p.property_id);
    expect(p.other_property_ids).toHaveLength(1);
    const other = await (await api.get(`/v1/property?property_id=${p.other_property_ids![0]}`)).json() as { parcel_id: string };
    expect(other.parcel_id).toBe(bbl(rows[1]!));
  });
});

describe('a unit written bare after the street (one unit-reading rule, coverage.ts typedUnit)', () => {
  it('GET /v1/property "1289 Lexington Ave 14D" (10028) answers the raw row of unit 14D, as "1289 Lexington Ave, 14D" does', async () => {
    const row = raw.find((r) => r['ADDRESS']!.trim() === '1289 LEXINGTON AVENUE, 14D')!;
    expect(row['APARTMENT NUMBER']!.trim()).toBe('14D');
    const bare = await api.get(`/v1/property?${new URLSearchParams({ zip: '10028', address: '1289 Lexington Ave 14D' })}`);
    expect(bare.status).toBe(200);
    const body = await bare.json() as { parcel_id: string; unit: string; property_id: string; sales: { date: string; price: number }[] };
    expect(body.parcel_id).toBe(bbl(row));
    expect(body.sales.map((s) => [s.date, s.price])).toContainEqual([row['SALE DATE'], Number(row['SALE PRICE'])]);
    const comma = await property('10028', '1289 Lexington Ave, 14D');
    expect(comma.property_id).toBe(body.property_id);
  });
});
