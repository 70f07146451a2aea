// A market the developers have not seen with all four canonical files, end to end: Philadelphia's roll and sales,
// Nashville's permit applications and Louisville's lien foreclosures of a few drawn zips, written as a stranger writes
// them (./four-files-folder.ts: BOM, CRLF, reordered and unknown columns, optional columns absent, quoted commas,
// `$1,200` amounts, ZIP+4, broken lines, an exact copy), built as the only market source by the real build, served
// on 127.0.0.1 port 0 and asked over HTTP. Every figure is recomputed from those CSVs with csv-parse by
// test/helpers/oracle-canonical-files.ts and oracle-canonical-sales.ts (the README's and market.md's rules), never
// read from the build.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows } from '../../warehouse/db.ts';
import { rng } from '../../scripts/rng.ts';
import { tmp } from '../helpers/tmp.ts';
import type { TestServer } from '../helpers/server.ts';
import { compsOf, monthOf, readCanonicalSales, type OracleSale } from '../helpers/oracle-canonical-sales.ts';
import { distressedOf, parcelPlaces, readCanonicalDistress, readCanonicalParcels, readCanonicalPermits, rehabPermitsOf, type OracleFiling,
  type OracleParcel, type OraclePermit } from '../helpers/oracle-canonical-files.ts';
import { writeFourFilesFolder, type FourFolder } from './four-files-folder.ts';
import { buildAndServe, closeServed, type ServedFolder } from './served-folder.ts';

let folder: FourFolder;
let sales: OracleSale[];
let parcels: OracleParcel[];
let permits: OraclePermit[];
let filings: OracleFiling[];
let srv: TestServer;
let key: string;
let served: ServedFolder;
let rejects: { file: string; line: number; rule: string; column: string }[];
const draw = rng(7701);
const pick = <T>(xs: T[]): T => xs[Math.floor(draw() * xs.length)]!;
const json = (p: string): Promise<Record<string, any>> => served.json(p);
const ask = (query: string): Promise<string> => served.ask(query);
const file = (name: string): string => path.join(folder.dir, name);

beforeAll(async () => {
  folder = writeFourFilesFolder(tmp('reii-unseen4-src-'));
  parcels = readCanonicalParcels(file('parcels.csv')).parcels;
  sales = readCanonicalSales(file('sales.csv'), parcelPlaces(parcels)).sales;
  permits = readCanonicalPermits(file('permits.csv')).permits;
  filings = readCanonicalDistress(file('distress.csv')).filings;
  const s = await buildAndServe(folder.sources, 'reii-unseen4-art-', (c) => queryRows<{ file: string; line: number; rule: string; column: string }>(c,
    `select replace(file, 'canonical/', '') as file, line::int as line, rule, column_name as "column" from meta.rejects where source = 'canonical' order by file, line`));
  served = s;
  ({ srv, key, read: rejects } = s);
}, 600_000);
afterAll(() => closeServed(served), 120_000);

describe('the stranger\'s four files: what is rejected', () => {
  test('each broken line is rejected with its file, line, rule and column; the oracle rejects the same lines', () => {
    const byLine = (a: { file: string; line: number }, b: { file: string; line: number }): number => a.file.localeCompare(b.file) || a.line - b.line;
    expect(rejects.filter((r) => r.rule !== 'duplicate_filing')).toEqual([...folder.bad].sort(byLine));
    const oracle = [readCanonicalSales(file('sales.csv'), parcelPlaces(parcels)).rejects.map((r) => ({ file: 'sales.csv', line: r.line })), readCanonicalParcels(file('parcels.csv')).rejects,
      readCanonicalPermits(file('permits.csv')).rejects, readCanonicalDistress(file('distress.csv')).rejects].flat().map((r) => ({ file: r.file, line: r.line }));
    expect(oracle.sort(byLine)).toEqual(folder.bad.map((b) => ({ file: b.file, line: b.line })).sort(byLine));
  });
  test('exact copies of a distress line are dropped as duplicate_filing: the written copy and the file\'s own, as the oracle finds them', () => {
    const copies = rejects.filter((r) => r.rule === 'duplicate_filing').map((r) => r.line);
    expect(copies).toContain(folder.distressCopyLine);
    expect(copies).toEqual(readCanonicalDistress(file('distress.csv')).copies);
  });
});

describe('distress.csv: the investor overview\'s distressed pipeline', () => {
  test('Louisville, 3 to 24 months: open filings\' properties (parcel, else address and zip) filed in the months to the last filing', async () => {
    for (const months of [3, 6, 12, 24]) {
      const want = distressedOf(filings, 'Louisville', months);
      const got = await json(`/v1/market/investor-overview?city=Louisville&state=KY&months=${months}`);
      expect({ n: got['distressed_pipeline_count'], asOf: got['distress_as_of'], src: got['source'].id }, `${months}`).toEqual({ n: want.count, asOf: want.asOf, src: 'canonical' });
      expect(got['investor_purchase_rate_pct']).toBeNull();
      expect(got['distressed_without_parcel'], 'every filing names a parcel or an address').toBe(0);
    }
  });
  test('a city of sales and no filings has no distressed count (null, not 0)', async () => {
    const got = await json('/v1/market/investor-overview?city=Philadelphia&state=PA&months=12');
    expect(got['distressed_pipeline_count']).toBeNull();
  });
  test('a filed property\'s record lists its filing, closed where closed_date is given', async () => {
    const f = pick(filings.filter((x) => !x.property.includes('|')));
    const prop = await json(`/v1/property?parcel_id=${f.property}&state=KY`);
    const mine = filings.filter((x) => x.property === f.property).map((x) => ({ date: x.filed, kind: x.kind, amount: x.amount, status: x.closed ? 'closed' : 'active', status_date: x.closed }));
    const got = (prop['distress'] as Record<string, unknown>[]).map((d) => ({ date: d['date'], kind: d['kind'], amount: d['amount'], status: d['status'], status_date: d['status_date'] }));
    const key = (d: { date: unknown; kind: unknown }): string => `${d.date}|${d.kind}`;
    expect([...got].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...new Map(mine.map((d) => [JSON.stringify(d), d])).values()].sort((a, b) => key(a).localeCompare(key(b))));
  });
  test('a filing naming no parcel is found by its address and zip, with its filings there', async () => {
    const f = pick(filings.filter((x) => x.property.includes('|')));
    const [address, zip] = f.property.split('|') as [string, string];
    const prop = await json(`/v1/property?address=${encodeURIComponent(address)}&zip=${zip}`);
    const want = filings.filter((x) => x.property === f.property).map((x) => `${x.filed} ${x.kind} ${x.amount}`);
    expect((prop['distress'] as Record<string, unknown>[]).map((d) => `${d['date']} ${d['kind']} ${d['amount']}`).sort()).toEqual([...new Set(want)].sort());
  });
});

describe('permits.csv: the rehab score\'s permit counts', () => {
  test('each zip, 3 to 24 months: residential rehab permits in the months to the file\'s last permit', async () => {
    for (const zip of folder.nashvilleZips) for (const months of [3, 6, 12, 24]) {
      const want = rehabPermitsOf(permits, zip, months);
      const got = await json(`/v1/market/rehab-score?zip=${zip}&months=${months}`);
      expect({ n: got['counts'].rehab_permits, end: got['permits_window'].window_end, sales: got['sales_window'] }, `${zip} ${months}`)
        .toEqual({ n: want.rehab, end: want.asOf, sales: null });
    }
  });
  test('"permits in <zip> last year" and "rehab permits in <zip> last year" count the file\'s permits of the 12 months', async () => {
    const zip = pick(folder.nashvilleZips);
    const want = rehabPermitsOf(permits, zip, 12);
    expect(await ask(`permits in ${zip} last year`)).toContain(`${want.all} building permits were issued in the 12 months to ${want.asOf}`);
    const rehabTypes = permits.filter((p) => p.zip === zip && p.date > want.start && p.date <= want.asOf && ['renovation', 'addition', 'repair'].includes(p.type)).length;
    expect(await ask(`rehab permits in ${zip} last year`)).toContain(`${rehabTypes} renovation/alteration, addition or repair permits were issued in the 12 months to ${want.asOf}`);
  });
});

describe('parcels.csv and sales.csv: the property record and comps', () => {
  test('a parcel with no sale in sales.csv: every fact from its parcels.csv line, lineage naming that line; autocomplete and valuation find it', async () => {
    const sold = new Set(sales.map((s) => s.parcel));
    const p = pick(parcels.filter((x) => !sold.has(x.parcel)));
    const prop = await json(`/v1/property?parcel_id=${p.parcel}&state=PA&include=lineage`);
    expect({ address: prop['address'], zip: prop['zip'], type: prop['property_type'], beds: prop['beds'], baths: prop['baths'], sqft: prop['sqft'], year: prop['year_built'] })
      .toEqual({ address: p.address, zip: p.zip, type: p.type, beds: p.beds, baths: p.baths, sqft: p.sqft, year: p.yearBuilt });
    const fields = prop['lineage'].fields as Record<string, { file: string; line: number; value: unknown }>;
    for (const f of ['address', 'zip', 'property_type']) expect({ f, file: fields[f]!.file, line: fields[f]!.line }).toEqual({ f, file: 'canonical/parcels.csv', line: p.line });
    // the roll's unsold house is an address to complete and a subject the valuation matches, with the roll's facts
    const ac = await json(`/v1/address/autocomplete?q=${encodeURIComponent(p.address)}&state=PA&limit=10`);
    expect((ac['results'] as { address: string; zip: string }[]).some((r) => r.address === p.address && r.zip === p.zip)).toBe(true);
    const est = (await (await srv.post('/v1/valuation/estimate', { zip: p.zip, address: p.address }, key)).json()) as Record<string, any>;
    expect(est['subject'].matched).toBe(true);
    const facts = Object.fromEntries((est['subject'].facts as { name: string; value: unknown }[]).map((f) => [f.name, f.value]));
    expect({ sqft: facts['sqft'] ?? null, year: facts['year_built'] ?? null }).toEqual({ sqft: p.sqft, year: p.yearBuilt });
  });
  test('a sold parcel: its sales from sales.csv, its owner type from parcels.csv\'s line', async () => {
    const s = pick(sales.filter((x) => parcels.some((p) => p.parcel === x.parcel && p.owner)));
    const p = parcels.find((x) => x.parcel === s.parcel)!;
    const prop = await json(`/v1/property?parcel_id=${s.parcel}&state=PA&include=lineage`);
    const want = sales.filter((x) => x.parcel === s.parcel && x.armsLength).map((x) => ({ date: x.date, price: x.price }));
    expect((prop['sales'] as { date: string; price: number; arms_length: boolean }[]).filter((x) => x.arms_length).map((x) => ({ date: x.date, price: x.price }))).toEqual(want);
    const owner = prop['lineage'].fields['owner_type'];
    expect({ file: owner.file, line: owner.line }).toEqual({ file: 'canonical/parcels.csv', line: p.line });
  });
  test('a sale keyed by parcel alone is placed by its parcel\'s line: the property\'s sales and zip', async () => {
    const keyedLines = new Set(fs.readFileSync(file('sales.csv'), 'utf8').split('\n').flatMap((l, i) => (/^[^,]*,[^,]*,\d+,[a-zA-Z]+,,,,,/.test(l) ? [i + 1] : [])));
    const s = pick(sales.filter((x) => keyedLines.has(x.line)));
    const p = parcels.find((x) => x.parcel === s.parcel)!;
    const prop = await json(`/v1/property?parcel_id=${s.parcel}&state=PA`);
    expect({ zip: prop['zip'], address: prop['address'] }).toEqual({ zip: p.zip, address: p.address });
    expect((prop['sales'] as { date: string; price: number }[]).map((x) => `${x.date} ${x.price}`)).toContain(`${s.date} ${s.price}`);
  });
  test('comps of each Philadelphia zip, 6 and 12 months', async () => {
    for (const zip of folder.phillyZips) for (const months of [6, 12]) {
      const want = compsOf(sales, zip, months);
      const got = await json(`/v1/market/comps?zip=${zip}&months=${months}&property_type=sfr`);
      expect({ end: got['coverage'].window_end, n: got['sample_count'], p: got['price_per_sqft'] }, `${zip} ${months}`)
        .toEqual({ end: want.windowEnd, n: want.count >= 5 ? want.count : null, p: { p25: want.p25, median: want.median, p75: want.p75 } });
    }
  });
  test('trends months of each Philadelphia zip: the arm\'s-length single-family sales counted, null below 5', async () => {
    for (const zip of folder.phillyZips) {
      const got = await json(`/v1/market/trends?zip=${zip}&property_type=sfr&months=24`);
      let counted = 0;
      for (const row of got['series'] as { month: string; sales_count: number | null }[]) {
        const want = monthOf(sales, { zip }, row.month);
        expect(row.sales_count, `${zip} ${row.month}`).toBe(want.count);
        counted += want.count ?? 0;
      }
      expect(counted, zip).toBeGreaterThan(0);
    }
  });
});

describe('places of the folder', () => {
  test('location risk answers every zip of the four files', async () => {
    for (const zip of [...folder.phillyZips, ...folder.nashvilleZips, pick([...new Set(filings.map((f) => f.zip))].sort())]) {
      expect((await json(`/v1/location/risk?zip=${zip}`))['zip_code']).toBe(zip);
    }
  });
  test('"foreclosures in Louisville": the 12 months\' distressed properties to the last filing', async () => {
    const want = distressedOf(filings, 'Louisville', 12);
    expect(await ask('foreclosures in Louisville')).toContain(`${want.count} distressed properties`);
    expect(await ask('foreclosures in Louisville')).toContain(`12 months to ${want.asOf}`);
  });
  test('"tax delinquent properties in Louisville" and a year\'s filings by kind', async () => {
    const want = distressedOf(filings.filter((f) => f.kind === 'tax_delinquent'), 'Louisville', 12);
    expect(want.asOf).toBe(distressedOf(filings, 'Louisville', 12).asOf);
    expect(await ask('tax delinquent properties in Louisville')).toContain(`${want.count} tax-delinquent properties are in the pipeline over the 12 months to ${want.asOf}`);
    const year = filings.filter((f) => f.filed.startsWith('2015'));
    const tax = year.filter((f) => f.kind === 'tax_delinquent').length, lien = year.filter((f) => f.kind === 'lien_foreclosure').length;
    expect(await ask('how many foreclosures were filed in Louisville in 2015')).toContain(`${year.length} foreclosure and lien filings were made in 2015 (${tax} tax-delinquent, ${lien} non-tax lien)`);
    const zip = pick([...new Set(year.map((f) => f.zip))].sort());
    const inZip = year.filter((f) => f.zip === zip);
    expect(await ask(`foreclosure filings in ${zip} in 2015`)).toContain(`In zip ${zip} (Louisville, KY), ${inZip.length} foreclosure and lien filing${inZip.length === 1 ? ' was' : 's were'} made in 2015`);
  });
});
