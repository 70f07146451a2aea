// Chicago community area names that towns elsewhere bear too (h17chi; area-towns.ts, permit-areas.ts), over the shared
// real build on the suite's pinned clock: a permits question reads the area and says the towns have no permit records;
// Illinois named (the question or the context's state) reads the area unless an Illinois town bears the name; a price
// question names both readings; a state written with the name ("permits in Austin, TX") reads the town there. Expected figures: our own SQL over the raw files in ../shared/data (the Chicago permits
// file; the ACS 2023 place populations for the towns of 1,000 people or more bearing a name).
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import fs from 'node:fs';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string, context?: { state?: string }): Promise<{ answer: string; confidence: string }> => engine.answer({ query, depth: 'quick', ...(context ? { context } : {}) });
const usd = (v: number): string => `$${Math.round(v).toLocaleString('en-US')}`;

/** One community area's permits of the raw file kept (first row of a permit number, not cancelled or revoked) in the
 *  12 months to the file's last such permit. */
async function rawArea(name: string): Promise<{ asOf: string; all: number; reno: number; cost: number }> {
  const [r] = await rawQuery<{ a: string; all: number; reno: number; cost: number }>(`
    with r as (select row_number() over () as ln, * from read_csv('${dataFile('chicago-building-permits/chicago_building_permits_2023-01_2026-07.csv.gz')}', all_varchar = true)),
    k as (select * from (select *, row_number() over (partition by permit_number order by ln) as rn from r where permit_number is not null and try_cast(issue_date as date) is not null)
          where rn = 1 and coalesce(permit_status, '') not in ('CANCELLED', 'REVOKED') and community_area_name is not null),
    e as (select max(issue_date::date) as as_of from k)
    select strftime(e.as_of, '%Y-%m-%d') as a, count(*)::int as "all",
           count(*) filter (where permit_type like '%RENOVATION/ALTERATION%')::int as reno,
           coalesce(sum(try_cast(reported_cost as double)) filter (where permit_type like '%RENOVATION/ALTERATION%' and try_cast(reported_cost as double) > 0), 0) as cost
    from k cross join e where issue_date::date > e.as_of - interval 12 month and community_area_name = '${name}' group by all`);
  return { asOf: r!.a, all: r!.all, reno: r!.reno, cost: Number(r!.cost) };
}
const said = (name: string, r: { asOf: string; all: number; reno: number; cost: number }): string =>
  `in ${name} (Chicago, IL), ${r.all.toLocaleString('en-US')} building permits were issued in the 12 months to ${r.asOf}: ${r.reno.toLocaleString('en-US')} renovation/alteration permits (reported cost ${usd(r.cost)})`;

const ABBR: Record<string, string> = { Utah: 'UT', Pennsylvania: 'PA', 'New York': 'NY', Michigan: 'MI', 'New Jersey': 'NJ', Colorado: 'CO', Illinois: 'IL', Texas: 'TX', Minnesota: 'MN', Arkansas: 'AR', Indiana: 'IN', Florida: 'FL', Maryland: 'MD' };
/** The ACS places of 1,000 people or more named `name` (its legal descriptor dropped), most populous first. */
async function rawTowns(name: string): Promise<{ town: string; st: string; pop: number }[]> {
  const rows = await rawQuery<{ town: string; st: string; pop: number }>(`
    select regexp_replace(split_part(NAME, ', ', 1), ' (city|town|village|CDP|borough|township)$', '') as town, split_part(NAME, ', ', 2) as st, B01003_001E::int as pop
    from read_csv('${dataFile('census-acs2023-population/acs5_2023_place_population.csv.gz')}', all_varchar = true)
    where B01003_001E::int >= 1000 and lower(regexp_replace(split_part(NAME, ', ', 1), ' (city|town|village|CDP|borough|township)$', '')) = lower('${name}') order by pop desc`);
  return rows.map((r) => ({ ...r, st: ABBR[r.st] ?? r.st }));
}
const listed = (towns: { town: string; st: string }[]): string => {
  const n = towns.slice(0, 3).map((t) => `${t.town}, ${t.st}`);
  return towns.length > 3 ? `${n.join(', ')} and ${towns.length - 3} more` : `${n.slice(0, -1).join(', ')} and ${n.at(-1)}`;
};

describe('a community area name towns elsewhere bear too, with no "Chicago"', () => {
  it('"permits in hyde park", "permits in lincoln park", "permits in austin": the area\'s permits; the towns said to have no permit records', async () => {
    for (const [q, name] of [['permits in hyde park', 'Hyde Park'], ['permits in lincoln park', 'Lincoln Park'], ['permits in austin', 'Austin']] as const) {
      const towns = await rawTowns(name);
      expect(towns.length, name).toBeGreaterThan(1);
      const a = (await ask(q)).answer;
      expect(a, q).toContain(`as Chicago's ${name} community area (the Chicago building permits file names each permit's community area; ${listed(towns)} have no building permit records: this build's permit sources are Chicago's and Nashville's; name the state for a town)`);
      expect(a, q).toContain(said(name, await rawArea(name)));
      expect(a, q).not.toMatch(/Lincoln, NE|I don't have data/);
    }
    // a name no town of 1,000 bears, written in lower case: the area, not the Bronx's Norwood
    expect(await rawTowns('Norwood Park')).toEqual([]);
    expect((await ask('permits in norwood park')).answer).toContain(said('Norwood Park', await rawArea('Norwood Park')));
  });
  it('Illinois named ("hyde park il", context IL): the area; an Illinois town of the name (Riverdale, IL) stays the town', async () => {
    expect((await rawTowns('Hyde Park')).some((t) => t.st === 'IL')).toBe(false);
    const hp = said('Hyde Park', await rawArea('Hyde Park'));
    expect((await ask('permits in hyde park il')).answer).toContain(hp);
    expect((await ask('permits in hyde park', { state: 'IL' })).answer).toContain(hp);
    const median = (await ask('median price hyde park IL')).answer;
    expect(median).toContain('not per community area, so only permits are answered');
    expect(median).toContain(hp);
    expect((await rawTowns('Riverdale')).find((t) => t.st === 'IL')?.pop).toBeGreaterThan(1000);
    expect((await ask('permits in riverdale il')).answer).not.toContain("Chicago's Riverdale community area");
  });
  it('a price asked with no state: both readings named, no figure; a town read says the area has permits only', async () => {
    const hp = await rawTowns('Hyde Park');
    const a = await ask('median price hyde park');
    expect(a.answer).toBe(`"hyde park" names Chicago's Hyde Park community area, for which we keep building permits only, no sales records (sale prices, trends and investor figures are kept per zip or city), and towns elsewhere: no sales source covers the towns of that name (${listed(hp)}); ask "permits in Hyde Park, Chicago" for the community area's building permits.`);
    expect(a.confidence).toBe('low');
    const lp = (await ask('home prices in lincoln park')).answer;
    expect(lp).toContain(`no sales source covers the towns of that name (${listed(await rawTowns('Lincoln Park'))})`);
    expect(lp).not.toContain('Lincoln, NE');
    const edge = await rawTowns('Edgewater');
    const e = (await ask('median price in Edgewater')).answer;
    expect(e).toMatch(new RegExp(`^Reading "Edgewater" as Edgewater, ${edge[0]!.st} \\(the most populous of \\d+ US places of that name; name the state for another\\), not Chicago's Edgewater community area, for which we keep building permits only, no sales records`));
    // a state named: that town alone
    expect((await ask('median price in Edgewater, FL')).answer).not.toContain('community area');
    expect((await ask('Austin home prices')).answer).toContain('Austin, TX');
  });
});

describe('a state written with the name reads the town there, never the Chicago area (review 19)', () => {
  it('"permits in Austin, TX": no permit records for Austin, TX, the build\'s permit sources named; "austin chicago" and "Austin" alone keep the area', async () => {
    // the raw files: Austin, TX has people but no permit file; the build's two permit folders are Chicago's and Nashville's
    expect((await rawTowns('Austin')).find((t) => t.st === 'TX')!.pop).toBeGreaterThan(900_000);
    const folders = fs.readdirSync(dataFile('')).filter((f) => /permit/.test(f)).sort();
    expect(folders).toEqual(['chicago-building-permits', 'nashville-building-permit-applications']);
    for (const q of ['permits in Austin, TX', 'permits in austin tx', 'Austin Texas permits']) {
      const a = (await ask(q)).answer;
      expect(a, q).toBe('We have no building permit records for Austin, TX: this build\'s permit sources are Nashville building permit applications and Chicago building permits, and no zip of Austin, TX has a rehab momentum score.');
    }
    const area = said('Austin', await rawArea('Austin'));
    expect((await ask('permits in austin chicago')).answer).toMatch(/^Reading "austin" as Chicago's Austin community area \(the Chicago building permits file names each permit's community area\)/);
    expect((await ask('permits in austin chicago')).answer).toContain(area);
    const alone = (await ask('permits in Austin')).answer;
    expect(alone).toMatch(/^Reading "Austin" as Chicago's Austin community area .*Austin, TX, .* have no building permit records/);
    expect(alone).toContain(area);
    // Illinois written keeps the area
    expect((await ask('permits in austin, IL')).answer).toContain(area);
  });
});
