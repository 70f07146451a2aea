// The eighteenth research review's place readings (A: live/research/place-aliases.ts soldTown, places.ts,
// live/places/question.ts, compare-sides.ts, retrieve.ts): a lower-case town with sales and no state fell to a
// nationwide answer ("compare greenwich and darien" gave Philadelphia's and Denver's investor rates), a comparison
// dropped an unread side silently, a lower-case misspelling with no "in" before it was not read. Over the shared real
// build on the suite's pinned clock; figures from the raw Connecticut files in ../shared/data.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { understand } from '../../../live/research/intent.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData, withoutCoverage } from '../../helpers/research.ts';
import { CT_RATED } from '../../helpers/oracle-ct.ts';

let data: ResearchData;
let engine: ResearchEngine;
beforeAll(() => { data = researchData(); engine = new ResearchEngine(data, null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
const places = (q: string): string[] => understand(q, {}, data).targets.map((t) => [t.state, t.city, t.zip].filter(Boolean).join(' '));
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

/** A Connecticut town's single-family sales from the raw files (a record listed twice once; no Non Use Code; no assessment-ratio outlier, oracle-ct.ts; $10,000
 *  or more; the 2022 file's "Residential" with no subtype counts as single-family, market.md): in the `months` months
 *  to the town's latest sale of any type, or in the months starting with `month` (YYYY-MM or YYYY). */
async function ctTown(town: string, window: { months: number } | { month: string }): Promise<{ end: string; n: number; m: number }> {
  const when = 'months' in window ? `d > e.e - interval ${window.months} month and d <= e.e` : `strftime(d, '%Y-%m') like '${window.month}%'`;
  const [r] = await rawQuery<{ end: string; n: number; m: number }>(`
    with s as (select "Property Type" as pt, "Residential Type" as rt,
                      strptime("Date Recorded", '%m/%d/%Y')::date as d, replace("Sale Amount", ',', '')::double as p
      from (select distinct on ("Serial Number", "Date Recorded", "Address", "Sale Amount") *
            from ${CT_RATED})
      where "Town" = '${town}' and coalesce("Non Use Code", '') = '' and not ratio_out and replace("Sale Amount", ',', '')::double >= 10000
        and "Property Type" is not null),
    e as (select max(d) as e from s)
    select (select e from e)::varchar as "end", count(*)::int as n, median(p) as m from s, e
    where pt = 'Residential' and coalesce(rt, 'Single Family') = 'Single Family' and ${when}`);
  return r!;
}

describe('A: a lower-case town with sales is read as its capitalised name, so case never changes the answer', () => {
  it('"compare greenwich and darien": the two towns\' own medians (the raw files\'), never other cities\' investor rates', async () => {
    const g = await ctTown('Greenwich', { months: 3 }), d = await ctTown('Darien', { months: 3 });
    expect([g.n, d.n]).toEqual([56, 46]);
    expect(places('compare greenwich and darien')).toEqual(['CT Greenwich', 'CT Darien']);
    const r = await ask('compare greenwich and darien');
    expect(r).toContain(`Greenwich, CT ${usd(g.m)} (${g.n} sales, 3 months to ${g.end})`);
    expect(r).toContain(`Darien, CT ${usd(d.m)} (${d.n} sales, 3 months to ${d.end})`);
    expect(r).not.toMatch(/Philadelphia|Denver/);
    expect(r.replaceAll('"greenwich"', '"Greenwich"').replaceAll('"darien"', '"Darien"')).toBe(await ask('compare Greenwich and Darien'));
    expect((await ask('greenwich vs darien median price')).replaceAll('"greenwich"', '"Greenwich"').replaceAll('"darien"', '"Darien"')).toBe(await ask('Greenwich vs Darien median price'));
  });

  it('"new canaan median price" and "how many homes sold in greenwich in 2023": the town\'s figures, not "no ranking"', async () => {
    const nc = await ctTown('New Canaan', { months: 3 });
    expect(nc.n).toBe(29);
    const r = await ask('new canaan median price');
    expect(withoutCoverage(r)).toContain(`the median of the ${nc.n} arm's-length single-family sales in the 3 months to ${nc.end} was ${usd(nc.m)}`);
    expect(r).toBe(await ask('New Canaan median price'));
    const y = await ctTown('Greenwich', { month: '2023' });
    const sold = await ask('how many homes sold in greenwich in 2023');
    expect(sold).toContain(`In Greenwich, CT, in 2023 there were ${y.n} arm's-length single-family sales`);
    expect(sold).not.toMatch(/ranking of cities/);
  });

  it('"west hartford vs glastonbury median price": both towns (Glastonbury has no Census place, only sales), either case', async () => {
    const w = await ctTown('West Hartford', { month: '2022-09' }), gl = await ctTown('Glastonbury', { month: '2022-09' });
    expect([w.n, gl.n]).toEqual([105, 58]);
    const r = await ask('west hartford vs glastonbury median price');
    expect(r).toContain(`West Hartford, CT ${usd(w.m)} (2022-09, ${w.n} sales)`);
    expect(r).toContain(`Glastonbury, CT ${usd(gl.m)} (2022-09, ${gl.n} sales)`);
    expect(r).toBe(await ask('West Hartford vs Glastonbury median price'));
    expect(places('Glastonbury median price')).toEqual(['CT Glastonbury']);
  });

  it('a town name of English words only is read as a place only after "in", "vs"... ("carnation" is Carnation, WA there)', () => {
    expect(places('is a carnation garden worth it')).toEqual([]);
    expect(places('median sale price in carnation')).toEqual(['WA Carnation']);
    expect(places('median sale price in carnation')).toEqual(places('median sale price in Carnation'));
  });

  it('"medain sale prcie sacremento": a misspelled large city in lower case with no "in" before it is read, said', async () => {
    expect(places('medain sale prcie sacremento')).toEqual(['CA Sacramento']);
    expect(await ask('medain sale prcie sacremento')).toMatch(/^Reading "sacremento" as Sacramento, CA \(the closest city name\): In Sacramento, CA/);
    expect(places('median sale price madian')).toEqual([]);
  });
});

describe('A: a side of a comparison no place is read in is said, never dropped, never answered with other places', () => {
  it('"seattle vs gotham median price": Seattle\'s figure and that "gotham" was not found', async () => {
    const r = await ask('seattle vs gotham median price');
    expect(r).toMatch(/^In Seattle, WA, the median single-family sale price/);
    expect(r).toContain('I could not find a place named "gotham"');
  });

  it('"King County vs Pierce County median price": both counties side by side, King County\'s figure as asked alone', async () => {
    // before (review 31): King County alone, and "one county is answered per question" for Pierce County
    const r = await ask('King County vs Pierce County median price');
    const alone = /(\$[\d,]+) midway between the two middle zips/.exec(await ask('King County median price'))?.[1];
    expect(alone).toBeDefined();
    expect(r).toMatch(new RegExp(`^Median single-family sale price \\(data as of [\\d-]+\\): King County, WA two middle zips' mean \\${alone} \\(\\d+ zips\\).*; Pierce County, WA no data`));
    expect(r).not.toContain('in this comparison');
    // the header dates every figure compared: a pooled window's end too (before, "data as of 2022-09-29" for Stamford
    // alone beside Greenwich's 3 months to 2023-09-29)
    for (const q of ['median price in Greenwich CT vs Stamford CT', 'median price Bridgeport CT vs Hartford CT']) {
      const b = await engine.answer({ query: q, depth: 'quick' });
      const dates = new Set(b.sources.map((x) => /(?:as of|months? to) (\d{4}-\d\d-\d\d)/.exec(x.citation)?.[1]));
      expect(dates.has(undefined), q).toBe(false);
      expect(b.answer, q).toMatch(new RegExp(`^Median single-family sale price \\(data as of ${[...dates].join(', ')}\\): `));
    }
    // places each side reads as the whole question does: nothing said
    for (const q of ['Springfield vs Chicago median price', '98103 vs 98117 median price', 'brooklyn vs queens median price']) expect(await ask(q), q).not.toMatch(/in this comparison/);
  });

  it('"compare foo and bar": not found, no investor ranking of Philadelphia and Denver', async () => {
    const r = await ask('compare zorblat and quuxville');
    expect(r).toMatch(/^I could not find a place named "zorblat" or a place named "quuxville"/);
    expect(r).not.toMatch(/Philadelphia|Denver/);
  });
});

describe('E: "which borough is cheapest" ranks New York City\'s five boroughs (before: no data)', () => {
  it('each borough\'s own median over the same 12 months, as the borough asked alone for them gives it (review 20: one period for all), and the lowest of them named', async () => {
    for (const q of ['which borough is cheapest', 'which nyc borough is cheapest']) {
      expect(places(q), q).toEqual(['NY New York', 'NY New York', 'NY New York', 'NY New York', 'NY New York']);
      const targets = understand(q, {}, data).targets.map((t) => t.area!.name);
      expect(targets).toEqual(['Brooklyn', 'Manhattan', 'the Bronx', 'Queens', 'Staten Island']);
      const r = await ask(q);
      expect(r, q).toMatch(/^Reading "borough" as New York City's five boroughs/);
      const figures = new Map<string, number>();
      for (const name of targets) {
        const own = /the median single-family sale price was (\$[\d,]+) in (\d{4}-\d{2}) \((\d+) sales\)|the median of the ([\d,]+) arm's-length single-family sales in the (\d+) months to [\d-]+ was (\$[\d,]+)/.exec(await ask(`median sale price in ${name} over the last 12 months`))!;
        const price = own[1] ?? own[6]!;
        expect(r, name).toContain(`${name} (New York, NY) ${price}`);
        figures.set(name, Number(price.replace(/[$,]/g, '')));
      }
      const low = [...figures].sort((a, b) => a[1] - b[1])[0]!;
      expect(r, q).toContain(`so ${low[0]} (New York, NY) is the cheapest`);
    }
    expect(places('which borough of Pennsylvania has the most foreclosures')).toEqual(['PA']);
  });
});

describe('F: places listed alone and "is X a good investment" get the overview (before: no data)', () => {
  it('"seattle and denver": each city\'s median (as asked alone) and investor activity; "is 98103 a good investment": the zip\'s', async () => {
    const own = async (q: string): Promise<string> => /the median single-family sale price was (\$[\d,]+ in \d{4}-\d{2})/.exec(await ask(q))![1]!;
    const r = await ask('seattle and denver');
    expect(r).toContain(`Seattle, WA ${(await own('median sale price in Seattle')).replace(/ in (\S+)$/, ' ($1')}`);
    expect(r).toContain(`Denver, CO ${(await own('median sale price in Denver')).replace(/ in (\S+)$/, ' ($1')}`);
    expect(r).toMatch(/Investor activity/);
    const z = await ask('is 98103 a good investment');
    expect(z).toContain(`In zip 98103 (Seattle, WA), the median single-family sale price was ${await own('median sale price in 98103')}`);
    expect(z).toMatch(/investor share/);
    // no place: never other cities' figures
    expect(await ask('is real estate a good investment')).not.toMatch(/Philadelphia|Denver/);
  });
});
