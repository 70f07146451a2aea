// Review 60: a property asked its recorded sales ("what did <address> sell for", "when was <address> last sold", "sale
// history of <address>") was answered with its zip's typical sale price, never with the property's own sales, which GET
// /v1/property holds. Now the research lists the property record's sales. Over the shared real build through a real
// server on 127.0.0.1 port 0: each address is taken from a RAW file (Philadelphia OPA's and NYC's rolling sales:
// DuckDB read_csv, never the build), its raw sale date and price must be in the answer, and every sale GET
// /v1/property lists for it too, with the record's flags, the source's title and the request that repeats it.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDir, serveSharedBuild } from '../../helpers/build.ts';
import { researchAsker, type ResearchAnswer } from '../../helpers/address-answers.ts';
import { dataFile, PHILADELPHIA_DATE, PHILADELPHIA_ROWS, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { ADDRESS } from '../../../live/research/street-line.ts';
import type { SaleItem } from '../../../live/property/layout.ts';

const api = serveSharedBuild('pro', 100_000);
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const csv = (rel: string): string => `read_csv('${dataFile(rel)}', all_varchar = true)`;
const research = researchAsker(api);
interface PropertyBody { property_id: string; address: string; city: string; state: string; zip: string; source: string; sales: SaleItem[]; lineage?: { sales: { file: string | null; line: number | null }[] } }
const property = async (address: string, zip: string, lineage = false): Promise<PropertyBody> => {
  const r = await api.get(`/v1/property?address=${encodeURIComponent(address)}&zip=${zip}${lineage ? '&include=lineage' : ''}`);
  expect(r.status, `${address} ${zip}`).toBe(200);
  return await r.json() as PropertyBody;
};
const title = (line: string): string => line.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());
/** A raw street line the research reads whole as an address, unique in its zip's rows. */
const streetLine = (s: string): boolean => ADDRESS.exec(s)?.[0] === s;
interface Pick { address: string; zip: string; date: string; price: number }
function first(rows: Pick[]): Pick {
  const count = new Map<string, number>();
  for (const r of rows) count.set(`${r.zip}|${r.address}`, (count.get(`${r.zip}|${r.address}`) ?? 0) + 1);
  const hit = rows.find((r) => count.get(`${r.zip}|${r.address}`) === 1 && streetLine(r.address));
  expect(hit).toBeDefined();
  return { ...hit!, address: title(hit!.address), price: Number(hit!.price) };
}

const nycRows = (file: string): Promise<Pick[]> => rawQuery<Pick>(`select trim("ADDRESS") as address, trim("ZIP CODE") as zip, cast(try_cast("SALE DATE" as date) as varchar) as date,
    try_cast(replace("SALE PRICE", ',', '') as double) as price
  from ${csv(`nyc-rolling-sales/${file}`)}
  where "BUILDING CLASS CATEGORY" like '01 ONE FAMILY%' and "APARTMENT NUMBER" is null and try_cast(replace("SALE PRICE", ',', '') as double) is not null
    and try_cast("SALE DATE" as date) is not null`);

let phl: Pick, nyc: Pick, twice: Pick[];
beforeAll(async () => {
  // Philadelphia OPA: the first SINGLE FAMILY row with a location, zip, sale date and price (its two-digit 2068-2071
  // years read as SOURCE.md says, PHILADELPHIA_DATE)
  phl = first(await rawQuery(`select trim(location) as address, left(zip_code, 5) as zip, cast(${PHILADELPHIA_DATE} as varchar) as date,
      try_cast(sale_price as double) as price
    from ${PHILADELPHIA_ROWS} where trim(category_code_description) = 'SINGLE FAMILY' and location is not null and zip_code is not null
      and d0 is not null and try_cast(sale_price as double) is not null`));
  // NYC rolling sales: the first one-family row with no apartment, a street line and a price
  const [older, newer] = [await nycRows('nyc_rolling_sales_2021-04_2022-03.csv.gz'), await nycRows('nyc_rolling_sales_2023-03_2024-02.csv.gz')];
  nyc = first(newer);
  // a house sold in both files, once in each: its record holds both sales
  const once = (rows: Pick[]): Map<string, Pick> => {
    const by = new Map<string, Pick[]>();
    for (const r of rows) by.set(`${r.zip}|${r.address}`, [...(by.get(`${r.zip}|${r.address}`) ?? []), r]);
    return new Map([...by].filter(([, v]) => v.length === 1).map(([k, v]) => [k, v[0]!]));
  };
  const a = once(older), b = once(newer);
  const key = [...b.keys()].find((k) => a.has(k) && streetLine(k.split('|')[1]!))!;
  twice = [b.get(key)!, a.get(key)!].map((r) => ({ ...r, address: title(r.address), price: Number(r.price) }));
}, 120_000);

/** The manifest's title of a source id. */
const sourceTitle = (id: string): string => {
  const m = JSON.parse(fs.readFileSync(path.join(buildDir(), 'manifest.json'), 'utf8')) as { sources: { id: string; title: string }[] };
  return m.sources.find((s) => s.id === id)!.title;
};

/** The checks every sale-history answer of a raw address passes. */
async function history(p: Pick, query: string): Promise<{ a: ResearchAnswer; rec: PropertyBody }> {
  const a = await research(query);
  const rec = await property(p.address, p.zip);
  expect(a.answer, query).toContain(`${p.date} for ${usd(p.price)}`); // the raw row's own sale
  expect(a.answer, query).toMatch(/^The property record of /);
  expect(a.answer, query).toContain(`he property record of ${rec.address}, ${rec.city}, ${rec.state} ${rec.zip} (property_id ${rec.property_id}) holds`);
  expect(rec.sales.length).toBeGreaterThan(0);
  for (const s of rec.sales.slice(0, 10)) expect(a.answer, query).toContain(`${s.date} for ${usd(s.price)}`);
  // newest first, as the record lists them
  const at = rec.sales.slice(0, 10).map((s) => a.answer.indexOf(`${s.date} for ${usd(s.price)}`));
  expect(at).toEqual([...at].sort((x, y) => x - y));
  for (const s of rec.sales.filter((x) => x.price === 0)) expect(a.answer).toContain(`${s.date} for $0 (a $0 transfer`);
  for (const s of rec.sales.filter((x) => x.price > 0 && x.price < 10_000)) expect(a.answer).toContain(`${s.date} for ${usd(s.price)} (a nominal price (under $10,000)`);
  if (rec.sales.some((x) => x.arms_length === false)) expect(a.answer).toContain("not arm's-length");
  for (const s of rec.sales.filter((x) => x.buyer)) expect(a.answer).toContain(`buyer ${s.buyer}`);
  expect(a.answer).toContain(`as recorded by ${sourceTitle(rec.source)}`);
  expect(a.answer).toContain(`the full record: GET /v1/property?address=${encodeURIComponent(p.address)}&zip=${p.zip}`);
  expect(a.sources[0]).toMatchObject({ type: 'property', category: 'market' });
  // the answer's confidence is its facts' lowest: the record's own is high, the zip's price level beside it may be less
  const zipOnly = await research(`median sale price in ${p.zip}`);
  expect(a.confidence, query).toBe(zipOnly.confidence);
  expect(a.answer).not.toContain('asked its recorded sales');
  return { a, rec };
}

describe('review 31: a property asked its recorded sales gets the property record\'s own sales', () => {
  it('Philadelphia: the raw OPA row\'s sale date and price, and every sale GET /v1/property lists', async () => {
    expect(phl.zip).toMatch(/^\d{5}$/);
    await history(phl, `what did ${phl.address}, Philadelphia ${phl.zip} sell for`);
  });

  it('NYC: the raw rolling-sales row\'s sale, every sale of the record, in several wordings', async () => {
    for (const q of [`when was ${nyc.address} ${nyc.zip} last sold`, `sale history of ${nyc.address} ${nyc.zip}`, `last sale price of ${nyc.address}, New York ${nyc.zip}`]) await history(nyc, q);
  });

  it('NYC: a house sold in both rolling-sales files, both raw sales, newest first', async () => {
    expect(twice).toHaveLength(2);
    const [p, before] = twice as [Pick, Pick];
    const { a, rec } = await history(p, `what did ${p.address} ${p.zip} sell for`);
    expect(rec.sales.length).toBeGreaterThanOrEqual(2);
    expect(a.answer).toContain(`holds ${rec.sales.length} recorded sales, newest first: `);
    expect(a.answer.indexOf(`${p.date} for ${usd(p.price)}`)).toBeLessThan(a.answer.indexOf(`${before.date} for ${usd(before.price)}`));
    expect(a.answer).toContain(`${before.date} for ${usd(before.price)}`);
  });

  it('sale words about other properties stay comparable sales; value and sales asked together give both', async () => {
    const comps = await research(`recently sold homes near ${phl.address} ${phl.zip}`);
    expect(comps.answer).not.toContain('he property record of');
    expect(comps.sources.map((s) => s.type)).not.toContain('property');
    const both = await research(`what is ${nyc.address} ${nyc.zip} worth and what did it sell for`);
    expect(both.answer).toMatch(/^The property record of /);
    expect(both.answer).toMatch(/valuation engine's estimate of |asked its value: /);
  });

  it('the other wordings of the review are read as sale history too', async () => {
    for (const q of [`how much did ${phl.address} ${phl.zip} sell for in 2022`, `what was ${phl.address} ${phl.zip} bought for`, `purchase price of ${phl.address} ${phl.zip}`]) {
      const a = await research(q);
      expect(a.answer, q).toMatch(/[Tt]he property record of .* holds/);
      expect(a.sources[0]?.type, q).toBe('property');
    }
  });

  it('deep: each sale\'s source row, as the lineage of GET /v1/property cites it', async () => {
    const rec = await property(nyc.address, nyc.zip, true);
    const a = (await research(`sale history of ${nyc.address} ${nyc.zip}`, 'deep')).answer;
    rec.sales.forEach((s, i) => {
      const c = rec.lineage!.sales[i]!;
      expect(a).toContain(`${s.date}: ${c.file}${c.line !== null ? ` line ${c.line}` : ''}`);
    });
  });

  it('deep: read as the property\'s recorded sales, with no regulation "related" by the word "sell"', async () => {
    // before: "Question read as: median sale price for zip ..." and Pennsylvania's seller-disclosure and seller-financing
    // rules listed as related records (full-text search on "sell")
    const rec = await property(phl.address, phl.zip);
    const q = `what did ${phl.address}, Philadelphia ${phl.zip} sell for`;
    const a = await research(q, 'deep');
    expect(a.answer.startsWith(`Question read as: the recorded sales of ${rec.address}, ${rec.city}, ${rec.state} ${rec.zip}, median single-family sale price for zip ${phl.zip}`), a.answer.slice(0, 200)).toBe(true);
    expect(a.answer).not.toContain('Related records found by full-text search');
    expect(a.sources.map((s) => s.type)).not.toContain('regulation');
  });

  it('a street line with one typo is read as the recorded one, said, medium confidence', async () => {
    const words = phl.address.split(' ');
    const k = words.findIndex((w, i) => i > 0 && i < words.length - 1 && /^[A-Za-z]{5,}$/.test(w));
    expect(k).toBeGreaterThan(0);
    const typed = words.map((w, i) => (i === k ? `${w.slice(0, 2)}${w[1]}${w.slice(2)}` : w)).join(' ');
    const rec = await property(phl.address, phl.zip);
    const a = await research(`what did ${typed} ${phl.zip} sell for`);
    expect(a.answer).toContain(`(property_id ${rec.property_id}; "${typed}" read as it, one typo from the zip's one recorded address) holds`);
    expect(a.answer).toContain(`${phl.date} for ${usd(phl.price)}`);
    expect(a.confidence).not.toBe('high');
  });

  it('a record with no recorded sale says so (the first Nashville permit application address, whose record holds none)', async () => {
    const rows = await rawQuery<{ address: string; zip: string }>(`select trim("Address") as address, trim("ZIP") as zip
      from ${csv('nashville-building-permit-applications/building_permits.csv.gz')} where "Address" is not null and "ZIP" is not null`);
    const hit = rows.find((r) => streetLine(r.address) && /^\d{5}$/.test(r.zip))!;
    const address = title(hit.address);
    const rec = await property(address, hit.zip);
    expect(rec.sales).toEqual([]);
    const a = await research(`when was ${address} ${hit.zip} last sold`);
    expect(a.answer).toContain(`he property record of ${rec.address}, ${rec.city}, ${rec.state} ${rec.zip} (property_id ${rec.property_id}) holds no recorded sale; the full record: GET /v1/property?address=${encodeURIComponent(address)}&zip=${hit.zip}`);
    expect(a.sources[0]).toMatchObject({ type: 'property', category: 'market' });
  });

  it('an address no record holds is said not found, the zip\'s price level kept as the figure', async () => {
    const [number, ...street] = phl.address.split(' ');
    const lines = new Set((await rawQuery<{ l: string }>(`select trim(location) as l from ${PHILADELPHIA_ROWS} where left(zip_code, 5) = '${phl.zip}'`)).map((r) => r.l));
    let n = Number(number);
    do n += 2; while (lines.has(`${n} ${street.join(' ').toUpperCase()}`));
    const address = `${n} ${street.join(' ')}`;
    expect((await api.get(`/v1/property?address=${encodeURIComponent(address)}&zip=${phl.zip}`)).status).toBe(404);
    const a = await research(`what did ${address} ${phl.zip} sell for`);
    expect(a.answer).toContain(`"${address}" asked its recorded sales: no property at that address is in zip ${phl.zip}'s property records`);
    expect(a.answer).toContain(`so no sale of it is listed; the figure given is zip ${phl.zip}'s typical sale price, not this property's`);
    expect(a.answer).toMatch(new RegExp(`[Ii]n zip ${phl.zip} \\(Philadelphia, PA\\), the median`));
    expect(a.sources.map((s) => s.type)).not.toContain('property');
  });

  it('"what is <the same address> worth" still answers with the valuation engine\'s estimate', async () => {
    const v = await api.post('/v1/valuation/estimate', { zip: nyc.zip, address: nyc.address });
    const body = await v.json() as { subject: { matched: boolean }; estimated_value: number };
    const a = await research(`what is ${nyc.address} ${nyc.zip} worth`);
    expect(a.answer).not.toContain('the property record of');
    expect(a.sources.map((s) => s.type)).not.toContain('property');
    if (v.status === 200 && body.subject.matched) {
      expect(a.answer).toContain(`valuation engine's estimate of`);
      expect(a.answer).toContain(usd(body.estimated_value));
      expect(a.sources[0]).toMatchObject({ type: 'valuation', category: 'valuation' });
    } else expect(a.answer).toContain(`"${nyc.address}" asked its value: `);
  });
});
