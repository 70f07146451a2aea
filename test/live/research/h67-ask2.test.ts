// Questions the h67ask2 audit found misread (session 67), over the shared real build on the suite's pinned day: (1-3)
// FEMA's National Risk Index asked of a zip, city or county read "National" as National, MD, "Index" as Index, WA and
// "the FEMA" as a neighbourhood, answering their county or legal risk; (4) "how many properties in Pittsburgh have an
// open foreclosure filing" got the state's foreclosure law and no sales, not the filings counted; (5) a city of
// filings alone compared by price ("is philly cheaper than pittsburgh") said "no data" without why; (6) "is
// connecticut expensive" read no topic; (7) Louisville's flips said "without buyer names", where no sale is recorded.
// Figures are re-read from the raw files (the NRI county table, Allegheny's docket, Connecticut's OPM files) or the
// warehouse, never typed in.
import { beforeAll, describe, expect, it } from 'vitest';
import { askWithSalesOracle, researchData } from '../../helpers/research.ts';
import { lookupsOf, ResearchEngine } from '../../../live/research/endpoint.ts';
import { buildDir } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { ALLEGHENY_OPEN } from '../../helpers/oracle-distress.ts';
import { ctStateWindow } from '../../helpers/oracle-ct.ts';

const asked = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await asked(query, 'quick')).answer;

/** The raw NRI county table's RISK_SCORE by county FIPS, as the answer rounds it (one decimal). */
let nri: Map<string, string>;
/** An engine with the build's location index, which the NRI answer reads (lookupsOf). */
let engine: ResearchEngine;
beforeAll(async () => {
  const rows = await rawQuery<{ f: string; s: string }>(`select STCOFIPS as f, RISK_SCORE as s from read_csv('${dataFile('fema-nri/NRI_Table_Counties_summary.csv')}', all_varchar = true)`);
  nri = new Map(rows.map((r) => [r.f.padStart(5, '0'), Number(r.s).toFixed(1)]));
  engine = new ResearchEngine(researchData(), null, PINNED_TODAY, lookupsOf(buildDir()));
}, 600_000);
const askNri = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
/** "<name> (<fips>) <score>" of the raw table, as the answer lists a county. */
const county = (name: string, fips: string): string => `${name} (${fips}) ${nri.get(fips)}`;

describe('FEMA\'s National Risk Index: its name is no place, the place asked is read', () => {
  it('zip 21224: Baltimore city\'s county score, never National, MD\'s (Allegany County)', async () => {
    expect(nri.get('24510')).toBe('24.3');
    for (const q of ['What is the National Risk Index score for zip 21224?', 'national risk index 21224', 'whats the nri of 21224', 'fema risk index for 21224', 'nationl risk index 21224']) {
      const a = await askNri(q);
      expect(a, q).toMatch(/^FEMA's National Risk Index \(NRI\) for zip 21224 \(Baltimore, MD\): the county composite risk score of its county, /);
      expect(a, q).toContain(county('City of Baltimore, MD', '24510'));
      expect(a, q).not.toMatch(/National, MD|Index, WA|Allegany/);
    }
  });

  it('"the FEMA National Risk Index score for Baltimore, MD": Baltimore\'s counties, no neighbourhood "the FEMA", no flood answer', async () => {
    for (const q of ['What is the FEMA National Risk Index score for Baltimore, MD?', "What is Baltimore's National Risk Index?", 'Natl Risk Index for Baltimore']) {
      const a = await askNri(q);
      expect(a, q).toMatch(/^FEMA's National Risk Index \(NRI\) for Baltimore, MD: /);
      expect(a, q).toContain(county('City of Baltimore, MD', '24510'));
      expect(a, q).not.toMatch(/neighbourhood|National, MD|Index, WA|flood/i);
    }
  });

  it('"the National Risk Index risk score of Middlesex County, MA": the county\'s score, not the legal risk of National or Index', async () => {
    for (const [q, name, fips] of [
      ['What is the National Risk Index risk score of Middlesex County, MA?', 'Middlesex County, MA', '25017'],
      ['national risk index rating for middlesex county massachusetts', 'Middlesex County, MA', '25017'],
      ['national risk index score of Cook County, IL', 'Cook County, IL', '17031'],
      ['fema nri score king county', 'King County, WA', '53033'],
    ] as const) {
      const a = await askNri(q);
      expect(a, q).toBe(`FEMA's National Risk Index (NRI) for ${name}: the county composite risk score of its county, ${county(name, fips)}, out of 100 (all natural hazards, relative to every US county); it is kept per county, not per city or zip, and is one part (a quarter) of the environmental risk score we give per zip.`);
    }
  });

  it('two places asked: each one\'s county score ("NRI score 98103 vs 60614")', async () => {
    const a = await askNri('NRI score 98103 vs 60614');
    expect(a).toContain(`for zip 98103 (Seattle, WA): the county composite risk score of its county, ${county('King County, WA', '53033')}`);
    expect(a).toContain(`for zip 60614 (Chicago, IL): the county composite risk score of its county, ${county('Cook County, IL', '17031')}`);
  });

  it('asked beside another topic ("the national risk index and flood zone for 21224"): both answered, the NRI no longer "not answered"', async () => {
    const a = await askNri('What is the national risk index and flood zone for 21224');
    expect(a).toMatch(/^Zip 21224 \(Baltimore, MD\): /);
    expect(a).toContain(`FEMA's National Risk Index (NRI) for zip 21224 (Baltimore, MD): the county composite risk score of its county, ${county('City of Baltimore, MD', '24510')}`);
    expect(a).not.toContain('not answered');
  });

  it('a town named National or Index is still read when asked by name with the Index', async () => {
    expect(await askNri('national risk index for Index, WA')).toContain(`for Index, WA: the county composite risk score of its county, ${county('Snohomish County, WA', '53061')}`);
  });
});

describe('a count of properties with an open foreclosure filing', () => {
  it('"How many properties in Pittsburgh have an open foreclosure filing from the last 24 months?": the 24 months\' open properties, as the raw docket counts them', async () => {
    const open24 = ALLEGHENY_OPEN.replace('interval 12 month', 'interval 24 month').replace('select p.m, p.pin from', 'select p.m, p.pin, p.case_id from');
    const [o] = await rawQuery<{ n: number }>(`select count(distinct coalesce(pin, 'case:' || case_id))::int as n from ${open24} where m = 'Pittsburgh'`);
    expect(o!.n).toBeGreaterThan(0);
    for (const q of ['How many properties in Pittsburgh have an open foreclosure filing from the last 24 months?', 'How many properties in Pittsburgh have open foreclosure filings from the past 2 years?']) {
      const a = await ask(q);
      expect(a, q).toMatch(new RegExp(`^In Pittsburgh, PA, ${o!.n} distressed properties \\(mortgage foreclosure filings.*\\) are in the pipeline over the 24 months to `));
      expect(a, q).not.toMatch(/judicial|no single-family sales/);
    }
  });

  it('"how many homes in pittsburgh are in foreclosure": the 12 months\' count, not the law', async () => {
    const [o] = await rawQuery<{ n: number }>(`select count(distinct coalesce(pin, 'case:' || case_id))::int as n from ${ALLEGHENY_OPEN.replace('select p.m, p.pin from', 'select p.m, p.pin, p.case_id from')} where m = 'Pittsburgh'`);
    const a = await ask('how many homes in pittsburgh are in foreclosure');
    expect(a).toMatch(new RegExp(`^In Pittsburgh, PA, ${o!.n} distressed properties`));
    // the law alone is still the law's
    expect(await ask('how long does a foreclosure case take in pennsylvania')).toMatch(/^Mortgage foreclosure in Pennsylvania is judicial/);
  });
});

describe('a city of filings alone, compared by price, says why it has no figure', () => {
  it('"is philly cheaper than pittsburgh": Pittsburgh has no sales, and holds filings, in the words of its own answer', async () => {
    const [s] = await sql<{ n: number }>("select count(*)::int as n from sales where state_code = 'PA' and zip like '152%'");
    expect(s!.n).toBe(0);
    const [f] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${ALLEGHENY_OPEN} where m = 'Pittsburgh'`);
    expect(f!.n).toBeGreaterThan(0);
    const why = 'no sales source of this build covers it';
    const held = 'what it holds there is foreclosure and lien filings (Allegheny County mortgage foreclosure filings): ask "foreclosures in Pittsburgh, PA"';
    const a = await ask('is philly cheaper than pittsburgh');
    expect(a).toContain(`Pittsburgh, PA no data (${why}; ${held})`);
    const alone = await ask('pittsburgh home prices');
    expect(alone).toMatch(new RegExp(`^We have no single-family sales for a median sale price in Pittsburgh, PA: ${why} \\(its sales sources are `));
    expect(alone).toContain(held);
  });
});

describe('a state judged by its prices', () => {
  it('"is connecticut expensive": the state\'s 12 months of single-family sales, as the raw files count them', async () => {
    const a = await ask('is connecticut expensive');
    const m = /^In Connecticut, the median of the ([\d,]+) arm's-length single-family sales in the 12 months to (\d{4}-\d{2}-\d{2})/.exec(a);
    expect(m, a).not.toBeNull();
    const to = m![2]!;
    const raw = await ctStateWindow('sfr', `${Number(to.slice(0, 4)) - 1}${to.slice(4)}`, to);
    expect(Number(m![1]!.replaceAll(',', ''))).toBe(raw.n);
    expect(a).toContain(`was $${Math.round(raw.median).toLocaleString('en-US')}`);
    for (const q of ['is CT pricey', 'how expensive is connecticut', 'is conneticut expensive']) expect(await ask(q), q).toContain(m![0].slice(1));
    // a state whose sales are one market's says which
    expect(await ask('is pennsylvania cheap')).toMatch(/^We have no statewide figure for Pennsylvania: its sales in this build are those of Philadelphia/);
  });
});

describe('a city of filings alone asked its flips', () => {
  it('"flip velocity louisville": no sale recorded, never "without buyer names"', async () => {
    const [s] = await sql<{ n: number }>("select count(*)::int as n from sales where state_code = 'KY'");
    expect(s!.n).toBe(0);
    for (const q of ['flip velocity louisville', 'how many flips in louisville', 'flip margin louisville', 'flip velocity pittsburgh']) {
      const a = await ask(q);
      expect(a, q).toContain('no sale for value is recorded');
      expect(a, q).toContain('with no sale recorded no investor purchase, and so no flip');
      expect(a, q).not.toContain('buyer names');
    }
    // a city of sales without buyer names keeps its words
    expect(await ask('flip velocity seattle')).toContain('without buyer names no investor purchase');
  });
});
