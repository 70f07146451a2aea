// Review 29: "what is <address> worth" was read as the zip's price level with a pointer to POST /v1/valuation/estimate.
// Now, when the address matches a property record, the research answer gives that property's estimate from the same
// engine, beside the zip's price level; unmatched, the price level stays and the address is said not found. Over the
// shared real build through a real server on 127.0.0.1 port 0: each address is taken from a RAW file (King County's
// parcel id, NYC's, Philadelphia's and Sacramento's street lines: DuckDB read_csv, never the build), both endpoints are
// asked, and the research must give the valuation's own value, range, confidence, comps and model.
import { beforeAll, describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { researchAsker } from '../../helpers/address-answers.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { ADDRESS } from '../../../live/research/street-line.ts';
import type { ValuationBody } from '../../../live/valuation/endpoint.ts';

const api = serveSharedBuild('pro', 100_000);
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const csv = (rel: string): string => `read_csv('${dataFile(rel)}', all_varchar = true)`;
const research = researchAsker(api);
const valuation = async (zip: string, address: string): Promise<ValuationBody> => {
  const r = await api.post('/v1/valuation/estimate', { zip, address });
  expect(r.status, `${zip} ${address}`).toBe(200);
  return await r.json() as ValuationBody;
};
const RANK = { low: 0, medium: 1, high: 2 } as const;

/** A raw street line the research reads whole as an address (house number, street words, suffix), unique in its zip. */
const streetLine = (s: string): boolean => ADDRESS.exec(s)?.[0] === s;
async function firstLine(rows: { line: string; zip: string }[]): Promise<{ line: string; zip: string }> {
  const count = new Map<string, number>();
  for (const r of rows) count.set(`${r.zip}|${r.line}`, (count.get(`${r.zip}|${r.line}`) ?? 0) + 1);
  const hit = rows.find((r) => streetLine(r.line) && count.get(`${r.zip}|${r.line}`) === 1);
  expect(hit).toBeDefined();
  return hit!;
}

/** The four raw addresses: each source's first residential row with a living area and a price, in file order. */
let picks: { source: string; query: (zip: boolean) => string; address: string; zip: string }[] = [];
beforeAll(async () => {
  const kc = (await rawQuery<{ id: string; zip: string }>(`select id, zipcode as zip from ${csv('king-county-wa-house-sales/kc_house_data.csv.gz')} limit 1`))[0]!;
  const nyc = await firstLine(await rawQuery<{ line: string; zip: string }>(`select trim("ADDRESS") as line, trim("ZIP CODE") as zip from ${csv('nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz')}
    where "BUILDING CLASS CATEGORY" like '01 ONE FAMILY%' and try_cast(replace("GROSS SQUARE FEET", ',', '') as int) > 0 and try_cast(replace("SALE PRICE", ',', '') as bigint) > 0 and "APARTMENT NUMBER" is null`));
  const phl = await firstLine(await rawQuery<{ line: string; zip: string }>(`select trim(location) as line, left(zip_code, 5) as zip from ${csv('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}
    where category_code_description = 'SINGLE FAMILY' and try_cast(total_livable_area as double) > 0 and try_cast(sale_price as double) > 1000`));
  const sac = await firstLine(await rawQuery<{ line: string; zip: string }>(`select trim(street) as line, zip from ${csv('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}
    where type = 'Residential' and try_cast(sq__ft as int) > 0 and try_cast(price as int) > 0`));
  picks = [
    { source: 'King County', query: () => `what is parcel ${kc.id} in King County worth`, address: kc.id, zip: kc.zip },
    ...[['NYC', nyc], ['Philadelphia', phl], ['Sacramento', sac]].map(([source, p]) => {
      const { line, zip } = p as { line: string; zip: string };
      const title = line.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());
      return { source: source as string, query: (z: boolean) => `what is ${title}${z ? ` ${zip}` : ''} worth`, address: title, zip };
    }),
  ];
}, 120_000);

/** The research's estimate sentence for a valuation answer: the engine's own figures. */
const figures = (v: ValuationBody): string => `is ${usd(v.estimated_value)} (range ${usd(v.value_low)} to ${usd(v.value_high)}), ${v.confidence} confidence, from ${v.comp_count} comparable sale${v.comp_count === 1 ? '' : 's'} (model: ${v.model})`;

describe('review 29: a property asked its value gets the valuation engine\'s estimate', () => {
  it('King County, NYC, Philadelphia and Sacramento raw addresses: the same value, range, confidence, comps and model as POST /v1/valuation/estimate', async () => {
    expect(picks.map((p) => p.source)).toEqual(['King County', 'NYC', 'Philadelphia', 'Sacramento']);
    for (const p of picks) {
      const v = await valuation(p.zip, p.address);
      expect(v.subject.matched, p.source).toBe(true);
      const rec = await (await api.get(`/v1/property?property_id=${v.subject.property_id}`)).json() as { address: string | null; parcel_id: string; city: string; state: string };
      const r = await research(p.query(true));
      const line = rec.address ? `${rec.address}, ${rec.city}, ${rec.state} ${p.zip}` : `parcel ${rec.parcel_id}, ${rec.city}, ${rec.state} ${p.zip}`;
      expect(r.answer, p.source).toMatch(/(^|: )[Tt]he valuation engine's estimate of /);
      expect(r.answer, p.source).toContain(`valuation engine's estimate of ${line} (property_id ${v.subject.property_id}) ${figures(v)}, as of ${v.as_of}`);
      expect(r.answer, p.source).toContain(`the full answer with its comps: POST /v1/valuation/estimate {"zip": "${p.zip}", "address": "${p.address}"}`);
      // the zip's price level stays beside it, and the estimate's source is cited
      expect(r.answer, p.source).toMatch(new RegExp(`[Ii]n zip ${p.zip} \\(`));
      expect(r.sources[0], p.source).toMatchObject({ type: 'valuation', category: 'valuation' });
      expect(RANK[r.confidence as keyof typeof RANK], p.source).toBeLessThanOrEqual(RANK[v.confidence]);
      expect(r.answer, p.source).not.toContain('asked its value');
      // the record's line is the raw address's: its house number (King County: the parcel id)
      expect(rec.address ? rec.address.split(' ')[0] : rec.parcel_id.replace(/^0+/, ''), p.source).toBe(p.address.split(' ')[0]!.replace(/^0+/, ''));
    }
  });

  it('with no zip typed, the address index places the street line and the figures are the same', async () => {
    for (const p of picks.filter((x) => x.source !== 'King County')) {
      const v = await valuation(p.zip, p.address);
      const a = (await research(p.query(false))).answer;
      expect(a, p.source).toContain(`"${p.address}" as zip ${p.zip} (`);
      expect(a, p.source).toContain(figures(v));
    }
  });

  it('"what would <address> sell for" and "how much could <address> go for" are the same estimate, never a seller-disclosure rule', async () => {
    for (const p of picks.filter((x) => x.source !== 'King County')) {
      const v = await valuation(p.zip, p.address);
      for (const q of [`what would ${p.address} ${p.zip} sell for`, `how much could ${p.address} ${p.zip} go for?`]) {
        const r = await research(q);
        expect(r.answer, q).toContain(figures(v));
        expect(r.sources[0], q).toMatchObject({ type: 'valuation' });
        expect(r.answer, q).not.toMatch(/disclos/i);
      }
    }
  });

  it('deep: the valuation\'s notes and its first comps, as the endpoint lists them', async () => {
    const p = picks.find((x) => x.source === 'Sacramento')!;
    const v = await valuation(p.zip, p.address);
    const a = (await research(p.query(true), 'deep')).answer;
    expect(a).toContain(figures(v));
    const c = v.comps[0]!;
    expect(a).toContain(`Its comps, highest weight first: ${c.address} sold ${c.sale_date} for ${usd(c.price)}`);
    // read as the property's value first (before: "Question read as: median sale price for zip ...")
    expect(a).toMatch(/^Question read as: the value of .+, median single-family sale price for zip \d{5}/);
  });

  it('a street line with one typo is read as the recorded one, said, with the same figures', async () => {
    // a street word of five letters or more (one typo allowed), not the suffix
    const long = (w: string, i: number, all: string[]): boolean => i > 0 && i < all.length - 1 && /^[A-Za-z]{5,}$/.test(w);
    const p = picks.find((x) => x.source !== 'King County' && x.address.split(' ').some(long))!;
    const words = p.address.split(' ');
    const k = words.findIndex(long);
    const typed = words.map((w, i) => (i === k ? `${w.slice(0, 2)}${w[1]}${w.slice(2)}` : w)).join(' '); // a letter doubled
    const [exact, v] = [await valuation(p.zip, p.address), await valuation(p.zip, typed)];
    expect(v.subject.matched).toBe(true);
    expect(v.subject.property_id).toBe(exact.subject.property_id);
    const a = (await research(`what is ${typed} ${p.zip} worth`)).answer;
    expect(a).toContain(`(property_id ${v.subject.property_id}; "${typed}" read as it, one typo from the zip's one recorded address) ${figures(v)}`);
    expect(figures(v)).toBe(figures(exact));
  });

  it('an address no record holds keeps the zip\'s price level and says the address was not found', async () => {
    const p = picks.find((x) => x.source === 'Philadelphia')!;
    const [number, ...street] = p.address.split(' ');
    // the same street, a house number the raw file has no row of in the zip
    const lines = new Set((await rawQuery<{ l: string }>(`select trim(location) as l from ${csv('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')} where left(zip_code, 5) = '${p.zip}'`)).map((r) => r.l));
    let n = Number(number);
    do n += 2; while (lines.has(`${n} ${street.join(' ').toUpperCase()}`));
    const address = `${n} ${street.join(' ')}`;
    const v = await valuation(p.zip, address);
    expect(v.subject.matched).toBe(false);
    const r = await research(`what is ${address} ${p.zip} worth`);
    expect(r.answer).toContain(`"${address}" asked its value: no property at that address in zip ${p.zip} is in the property records, so no estimate of it is given (the valuation engine, POST /v1/valuation/estimate, would value the zip's typical house for it, not this one); the figure given is zip ${p.zip}'s typical sale price`);
    expect(r.answer).toMatch(new RegExp(`In zip ${p.zip} \\(Philadelphia, PA\\), the median single-family sale price was`));
    expect(r.answer).not.toContain(usd(v.estimated_value));
    expect(r.sources.map((s) => s.type)).not.toContain('valuation');
  });
});
