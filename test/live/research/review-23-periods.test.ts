// Review 23's research leftovers, over the shared real build on the suite's pinned day. (1) A year asked of permit
// counts ("permits in 37206 in 2023") counts the permits of that calendar year by kind (permit-periods.ts), says which
// months of it the permit file covers when it covers the year in part only, and says plainly when the year is outside
// the file; before, the latest window's counts came with "not for 2023". (2) A window's sales count names the months
// its source files cover in part only ("2015-05 in part only": King County's file ends 2015-05-27), as the trends do.
// Expected figures re-counted from the raw files in ../shared/data by the adapters' keep rules (SOURCE.md and
// pipelines/intermediate 30_market_20_permits_nashville.sql, 30_market_21_permits_chicago.sql): never the code's output.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { CHICAGO, CHICAGO_KIND, NASHVILLE, NASHVILLE_KIND, permitCounts, permitKindList } from '../../helpers/oracle-raw-permits.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

const n = (x: number): string => x.toLocaleString('en-US');
const counts = permitCounts;
const kindList = permitKindList;

describe('review 23 #1: permits of a year asked', () => {
  it('"permits in 37206 in 2023": the calendar year\'s permits by kind, the year covered whole', async () => {
    const c = await counts(NASHVILLE, NASHVILLE_KIND, `left(zip, 5) = '37206' and year(d) = 2023`);
    expect(c.all).toBeGreaterThan(0);
    const a = await ask('permits in 37206 in 2023');
    expect(a).toContain(`${n(c.all)} building permits were applied for in 2023 (${kindList(c)}), from the permit records of`);
    expect(a).not.toMatch(/in part only|not for 2023|rehab momentum score/);
  });

  it('renovation permits in Nashville 2021: the months of 2021 the file covers named, in part', async () => {
    const c = await counts(NASHVILLE, NASHVILLE_KIND, `city ilike 'nashville' and year(d) = 2021`);
    expect(c.first.slice(0, 7)).toBe('2021-09'); // SOURCE.md: applications from 2021-09-16
    expect(c.first).not.toMatch(/-01$/);
    const a = await ask('renovation permits in Nashville 2021');
    expect(a).toContain(`${n(c.of('renovation'))} renovation/alteration permits were applied for in 2021, of ${n(c.all)} permits of every kind (${kindList(c)})`);
    expect(a).toContain(`covers ${c.first} to ${c.last}, so of 2021 only 2021-10 to 2021-12, and 2021-09 in part only: not a count of the whole of 2021`);
  });

  it('how many building permits were issued in Chicago in 2022: outside the file, said plainly with what it covers', async () => {
    const c = await counts(CHICAGO, CHICAGO_KIND, 'year(d) = 2022');
    expect(c.all).toBe(0);
    const a = await ask('how many building permits were issued in Chicago in 2022');
    expect(a).toContain(`We have no building permits in 2022 for Chicago, IL: `);
    expect(a).toContain(`covers ${c.first} to ${c.last}`);
    expect(a).not.toMatch(/rehab momentum score|building permits were issued in the \d+ months/);
  });

  it('"in \'23" is 2023; "since 2025" runs to the file\'s end, its last month in part only', async () => {
    expect(await ask("permits 37206 in '23")).toBe(await ask('permits in 37206 in 2023'));
    const c = await counts(CHICAGO, CHICAGO_KIND, 'd >= date \'2025-01-01\'');
    expect(c.last).toBe('2026-07-15');
    const a = await ask('permits issued in chicago since 2025');
    expect(a).toContain(`In Chicago, IL, ${n(c.all)} building permits were issued since 2025 (${kindList(c)})`);
    expect(a).toContain(`covers ${c.first} to ${c.last}, so of these months only 2025-01 to 2026-06, and 2026-07 in part only: not a count of all of them`);
  });

  it('Chicago in 2023: every kind counted over the whole year', async () => {
    const c = await counts(CHICAGO, CHICAGO_KIND, 'year(d) = 2023');
    const a = await ask('How many building permits were issued in Chicago in 2023?');
    expect(a).toContain(`In Chicago, IL, ${n(c.all)} building permits were issued in 2023 (${kindList(c)})`);
  });
});

describe('review 23 #2: a window\'s months covered in part only', () => {
  const KC = `(select strptime("date", '%Y%m%dT%H%M%S')::date as d from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))`;

  /** The file's first and last sale day, and its months the trends call covered in part only: a month the file starts
   *  more than 3 days after the first of, or ends more than 3 days before the last of (30_mart_market_trends.ts
   *  COVER_EDGE_DAYS: a month's first or last working day may sit 3 days from its edge). */
  async function kingCounty(): Promise<{ first: string; last: string; part: string[] }> {
    const [s] = await rawQuery<{ a: string; b: string; pa: boolean; pb: boolean }>(`select min(d)::varchar as a, max(d)::varchar as b,
      min(d) > date_trunc('month', min(d)) + interval 3 day as pa, max(d) < last_day(max(d)) - interval 3 day as pb from ${KC}`);
    return { first: s!.a, last: s!.b, part: [...(s!.pa ? [s!.a.slice(0, 7)] : []), ...(s!.pb ? [s!.b.slice(0, 7)] : [])] };
  }

  it('Seattle\'s 3 months to the file\'s last sale: its last month, covered in part only, is not said (no day of the window is uncovered)', async () => {
    const kc = await kingCounty();
    expect(kc.part).toEqual(['2015-05']); // 2015-05-27: the file ends 4 days before the month's end; it starts 2014-05-02
    const a = await ask('How many homes sold in Seattle in the last 3 months?');
    // the window ends at Seattle's latest sale, the file's last day: the part of May after it is outside the window
    expect(a).toContain(`sales in the 3 months to ${kc.last}, at a median price of`);
    expect(a).not.toContain('in part only');
  });

  it('Seattle\'s 24 months: the months before the file said uncovered, the coverage words ending with its month in part only', async () => {
    const kc = await kingCounty();
    expect(kc.first).toBe('2014-05-02');
    const a = await ask('How many homes sold in Seattle in the last 24 months?');
    // (2013-05-27, 2015-05-27]: 2013-05 (its last 4 days) to 2014-04 before the file; 2014-05 to 2015-05 in it, 2015-05 in part
    expect(a).toContain('the source covers none of 2013-05 to 2014-04, inside this window, so these sales fall in the 13 months of it the source covers: the source files cover 2014-05 to 2015-04 of the 60 months to 2015-05; 2015-05 in part only)');
  });
});
