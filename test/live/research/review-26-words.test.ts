// Review 26's research words. (1) "what do homes in Staten Island 10309 go for in dollars per foot" answered the median
// sale price: "dollars per foot", "per foot", "a foot", "$/ft", "psf", "ppsf", "price per sf", "$ per sq ft" are the
// price per sqft (sqft-words.ts). (2) "lien foreclosure suits" in Louisville counted the Metro lien cases alone, though
// a Commonwealth tax-lien suit is a lien foreclosure too (the file's SOURCE.md: the whole file is lien foreclosures):
// a word covering several kinds counts them all and says the split (distress-kinds.ts). Over the shared real build on
// the pinned clock; expected figures from the raw files in ../shared/data (oracle-raw-comps.ts rawComps, the raw
// Louisville file by the adapter's kind rule), never from the code's output.
import { describe, expect, it } from 'vitest';
import { sqftWords } from '../../../live/research/sqft-words.ts';
import { rawComps } from '../../helpers/oracle-raw-comps.ts';
import { filings, LOUISVILLE_CASES, LOUISVILLE_FILINGS } from '../../helpers/oracle-distress.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';

const asked = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await asked(query)).answer;
const n = (x: number): string => x.toLocaleString('en-US');

describe('review 26: the words of a price per square foot', () => {
  it('each investor wording is written "price per sqft"; a foot of water or feet from a line is not', () => {
    for (const q of ['dollars per foot', 'per foot', 'go for a foot', '$/ft', '$ / ft.', 'psf', 'ppsf', 'price per sf', '$ per sq ft', 'per square foot',
      'cost per foot', 'dollars a square foot', 'how much a square foot', 'price per sq. ft.', 'per-square-foot', '$/sf', 'sqft price']) {
      expect(sqftWords(`${q} in 10309`), q).toMatch(/price per sqft in 10309$/);
    }
    for (const q of ['flood zone with a foot of water in 10309', 'a fence 6 feet from the lot line', 'sq ft of homes in 10309', 'sold for $400 a foot']) expect(sqftWords(q), q).toBe(q);
  });

  it('"what do homes in Staten Island 10309 go for in dollars per foot": the price per sqft, recomputed from the raw NYC files', async () => {
    const raw = (await rawComps()).get('10309|sfr|6')!;
    expect(raw.n).toBeGreaterThanOrEqual(20);
    const ppsf = await ask('price per sqft in 10309');
    expect(ppsf).toMatch(new RegExp(`^In zip 10309 \\(Staten Island, NY\\), ${raw.n} single-family sales in the 6 months to \\d{4}-\\d{2}-\\d{2} had a median \\$${Math.round(raw.median)} per sqft`));
    for (const q of ['what do homes in Staten Island 10309 go for in dollars per foot', 'what do homes in 10309 go for a foot', 'homes in 10309 per foot',
      '$/ft in 10309', 'psf in 10309', 'ppsf in 10309', 'price per sf in 10309', '$ per sq ft in 10309']) {
      const a = await ask(q);
      expect(a, q).not.toMatch(/median of the \d+ arm's-length single-family sales|median sale price/);
      expect(a.replace(/^In zip 10309 \(Staten Island, NY\)/, ''), q).toBe(ppsf.replace(/^In zip 10309 \(Staten Island, NY\)/, ''));
    }
  });
});

describe('review 26: "lien foreclosure" counts every lien kind, the split said', () => {
  it('Louisville\'s filings of 2015: the tax-lien and the other lien suits together; a code-enforcement lien alone its own', async () => {
    const c = await filings(LOUISVILLE_FILINGS, 'year(d) = 2015', 'kind');
    expect(c.of('tax_delinquent')).toBeGreaterThan(0);
    expect(c.of('lien_foreclosure')).toBeGreaterThan(0);
    const both = c.of('tax_delinquent') + c.of('lien_foreclosure');
    for (const q of ['lien foreclosures in Louisville in 2015', 'lien foreclosure suits in Louisville in 2015', 'how many lien foreclosure filings in Louisville in 2015']) {
      expect(await ask(q), q).toContain(`In Louisville, KY, ${n(both)} lien foreclosure filings (${n(c.of('tax_delinquent'))} tax-delinquent, ${n(c.of('lien_foreclosure'))} non-tax lien) were made in 2015, of ${n(c.all)} foreclosure and lien filings of every kind`);
    }
    expect(await ask('code enforcement lien filings in Louisville in 2015')).toContain(`In Louisville, KY, ${n(c.of('lien_foreclosure'))} non-tax lien filings were made in 2015, of ${n(c.all)} foreclosure and lien filings of every kind`);
    expect(await ask('tax lien foreclosures in Louisville in 2015')).toContain(`In Louisville, KY, ${n(c.of('tax_delinquent'))} tax-delinquent filings were made in 2015`);
  });

  it('the 12-month pipeline: "lien foreclosure filings in Louisville" counts both kinds\' open properties', async () => {
    const rows = await sql<{ kind: string; n: number; a: string }>(`
      with c as (select *, case when regexp_matches(upper(style), '^\\s*(C/W|CW|COMM|COMMONWEALTH)\\b') then 'tax_delinquent' else 'lien_foreclosure' end as kind from ${LOUISVILLE_CASES}),
      e as (select max(filed) as a from c)
      select kind, count(distinct parcel)::int as n, e.a::varchar as a from c, e
      where filed > e.a - to_months(12) and filed <= e.a and (sold is null or sold > e.a) group by all`);
    const of = (k: string): number => rows.find((r) => r.kind === k)?.n ?? 0;
    const [all] = await sql<{ n: number }>(`
      with c as (select * from ${LOUISVILLE_CASES}), e as (select max(filed) as a from c)
      select count(distinct parcel)::int as n from c, e where filed > e.a - to_months(12) and filed <= e.a and (sold is null or sold > e.a)`);
    expect(of('tax_delinquent')).toBeGreaterThan(0);
    const a = await ask('lien foreclosure filings in Louisville');
    expect(a).toContain(`In Louisville, KY, ${n(all!.n)} lien foreclosure properties (${n(of('tax_delinquent'))} tax-delinquent, ${n(of('lien_foreclosure'))} non-tax lien) are in the pipeline over the 12 months to ${rows[0]!.a}`);
  });
});
