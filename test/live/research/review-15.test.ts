// The fifteenth research review's misreadings (POST /v1/research/query), over the shared real build on the suite's
// pinned clock. Every figure expected is recomputed by the research oracle (test/helpers/oracle-research*.ts) from the
// build's raw tables and canonical rows, never read from its marts or shards.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { friendlinessOf } from '../../helpers/oracle-research-legal.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { figureDirection } from '../../../live/research/asked.ts';
import { RANK } from '../../../live/research/ranks.ts';

const ask = askWithSalesOracle();

describe('"for landlords": the places\' landlord friendliness, never a record sharing the word', () => {
  it.each([
    ['texas vs florida for landlords', 'TX', 'Texas', 'FL', 'Florida'],
    ['Ohio or Michigan for a landlord', 'OH', 'Ohio', 'MI', 'Michigan'],
  ])('%s', async (q, a, aName, b, bName) => {
    const r = await ask(q);
    const [fa, fb] = [friendlinessOf(a), friendlinessOf(b)];
    expect(r.answer).toContain(`${aName} ${fa} out of 100`);
    expect(r.answer).toContain(`${bName} ${fb} out of 100`);
    const [win, score] = fa >= fb ? [aName, fa] : [bName, fb];
    if (fa !== fb) expect(r.answer).toContain(`so ${win} is the more landlord-friendly (${score} out of 100)`);
    // before: "Closest matching rule ...: Texas no statutory cap; Florida no statutory cap" (the deposit-cap records)
    expect(r.answer).not.toMatch(/deposit|statutory cap|Closest matching/i);
    expect(r.sources.every((s) => /landlord friendliness/.test(s.citation))).toBe(true);
  });
});

describe('"sells fastest": days on market (the fastest the lowest), or that there is none, never another figure ranked', () => {
  it.each([
    ['which zip sells fastest in seattle', 'WA', 'Seattle'],
    ['which zip in Denver sells the slowest', 'CO', 'Denver'],
  ])('%s', async (q, st, city) => {
    const own = await windowSalesOracle({ state: st, city }, 'sfr', 12);
    // no source has days on market there: the sales files carry no listing date, and every raw Redfin snapshot period
    // of the city's zips (the raw city list's; 90 days to its period_end) starts after the city's last arm's-length
    // sale, so none stands for a sales window
    const [rf] = await sql<{ n: number; first: string }>(`
      with z as (select unnest(string_split(zips, ' ')) as zip from raw.simplemaps__cities where state_id = $st and city = $city)
      select count(*)::int as n, min(try_cast(period_end as date) - 90)::varchar as first from raw.redfin__zip_snapshots where zip_code in (select zip from z)`, { st, city });
    expect(rf!.n).toBeGreaterThan(0);
    expect(rf!.first > own.asOf).toBe(true);
    const r = await ask(q);
    // before: "I don't have data that answers this question for Seattle, WA" (no topic read), or the zips ranked by
    // price per sqft
    expect(r.answer).toContain('has no days-on-market figure, so none of its zips can be ranked by how fast homes sell');
    expect(r.answer).toContain(`had ${own.n.toLocaleString('en-US')} arm's-length single-family sales in the 12 months to ${own.asOf}`);
    expect(r.answer).not.toMatch(/per sqft|run from|I don't have data/);
  });
  it('where do homes sell fastest: no ranking on days on market, never one on price per sqft', async () => {
    const r = await ask('where do homes sell fastest');
    expect(r.answer).toContain("I don't have a ranking of cities or zips on days on market");
    expect(r.answer).not.toMatch(/price per sqft/);
    expect(r.confidence).toBe('low');
  });
});

describe('a former Connecticut county asked a town topic none of its towns has: the county answers, never one town', () => {
  it('rehab momentum in Litchfield County CT', async () => {
    // its towns by the raw files (as former-counties.test.ts): the Connecticut sales files' towns that a USPS place
    // name (GeoNames) of a 2020 ZCTA whose primary county is Litchfield's old 09005 names
    const towns = (await rawQuery<{ town: string }>(`
      with towns as (select distinct trim("Town") as town from read_csv('${dataFile('connecticut-real-estate-sales/*.csv.gz')}', all_varchar = true, union_by_name = true)),
      zctas as (select "ZCTA5" as zcta from read_csv('${dataFile('usgeo-census-tables/zctas.csv.gz')}', all_varchar = true) where "Primary County" = '09005'),
      ct as (select distinct lower(place) as place, zipcode in (select zcta from zctas) as inside
             from read_csv('${dataFile('geonames-us-postal-codes/zipcodes.us.csv.gz')}', all_varchar = true) where state_code = 'CT')
      select town from towns t where exists (select 1 from ct where inside and (place = lower(t.town)
        or (contains(' ' || place || ' ', ' ' || lower(t.town) || ' ') and not exists (select 1 from ct c2 where c2.place = lower(t.town)))))
      order by town`)).map((r) => r.town);
    expect(towns.length).toBeGreaterThan(1);
    // the only permit sources are Chicago's and Nashville's: no Connecticut zip has a permit component
    expect(fs.readdirSync(SHARED_DATA).filter((d) => /permit/.test(d)).sort()).toEqual(['chicago-building-permits', 'nashville-building-permit-applications']);
    const r = await ask('rehab momentum in Litchfield County CT');
    expect(r.answer).toContain(`We have no rehab momentum scores for Litchfield County, CT: none of its ${towns.length} towns has one (a zip's score needs renovation permits (this build's permit sources cover Chicago and Nashville only)`);
    // before: "We have no rehab momentum scores for any zip of Barkhamsted, CT." (the first town's, said as the answer)
    expect(r.answer).not.toMatch(/Barkhamsted/);
    expect(r.confidence).toBe('low');
  });
});

const money = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

describe('low and high words in one question: each ranked figure takes its own direction', () => {
  it('the direction of each figure is read from the words beside it (pure)', () => {
    expect(figureDirection('lowest price but highest growth', RANK.price.figure)).toBe('low');
    expect(figureDirection('lowest price but highest growth', RANK.change.figure)).toBe('high');
    expect(figureDirection('cheapest and most expensive zips in queens', RANK.price.figure)).toBe('both');
    // one direction in the question: every figure takes it, as before
    expect(figureDirection('which is cheapest, brooklyn or queens', RANK.price.figure)).toBe('low');
    expect(figureDirection('which has more sales, 98103 or 98117', RANK.sales.figure)).toBe('high');
    // days on market: the fastest is the lowest
    expect(figureDirection('which sells faster, 98103 or 98117', RANK.dom.figure, RANK.dom.speed)).toBe('low');
  });

  it('cheapest and most expensive zips in queens: three named at each end', async () => {
    const [row] = await sql<{ zips: string }>(`select zips from raw.simplemaps__cities where state_id = 'NY' and city = 'Queens'`);
    const zips = row!.zips.split(/\s+/).filter((z) => /^\d{5}$/.test(z));
    const figs: { zip: string; n: number; median: number; asOf: string }[] = [];
    for (const zip of zips) {
      const w = await windowSalesOracle({ zip }, 'sfr', 12).catch(() => null);
      if (w && w.median !== null) figs.push({ zip, n: w.n, median: w.median, asOf: w.asOf });
    }
    figs.sort((a, b) => a.median - b.median || a.zip.localeCompare(b.zip));
    const shown = (f: typeof figs[number]): string => `zip ${f.zip} ${money(f.median)} (${f.n} sale${f.n === 1 ? '' : 's'} to ${f.asOf})`;
    const list = (fs: typeof figs): string => `${fs.slice(0, -1).map(shown).join(', ')} and ${shown(fs.at(-1)!)}`;
    const r = await ask('cheapest and most expensive zips in queens');
    expect(r.answer).toContain(`In Queens, NY, ${figs.length} zips had 5 or more arm's-length single-family sales`);
    // before: the three cheapest, then "the most expensive zip 11415 ..." alone (the low end read for both)
    expect(r.answer).toContain(`by median sale price the cheapest are ${list(figs.slice(0, 3))}, the most expensive are ${list(figs.slice(-3).reverse())};`);
  });

  it('the cheapest and the most expensive of three towns: both named', async () => {
    const towns = ['New Haven', 'Bridgeport', 'Hartford'];
    const w = await Promise.all(towns.map((city) => windowSalesOracle({ state: 'CT', city }, 'sfr', 12)));
    const by = towns.map((t, i) => ({ t, m: w[i]!.median! })).sort((a, b) => a.m - b.m);
    const r = await ask('which of New Haven, Bridgeport and Hartford CT is the cheapest and which is the most expensive over the last 12 months');
    for (const [i, t] of towns.entries()) expect(r.answer).toContain(`${t}, CT ${money(w[i]!.median!)} (${w[i]!.n.toLocaleString('en-US')} sales, 12 months to ${w[i]!.asOf})`);
    // before: the most expensive only (no direction read from both words: the high end)
    expect(r.answer).toContain(`so ${by[2]!.t}, CT is the most expensive (${money(by[2]!.m)}), and ${by[0]!.t}, CT is the cheapest (${money(by[0]!.m)})`);
  });

  it('lowest price but highest growth: the price ranked low, the change high', async () => {
    const towns = ['New Haven', 'Bridgeport'];
    const w = await Promise.all(towns.map((city) => windowSalesOracle({ state: 'CT', city }, 'sfr', 3)));
    const cheapest = towns.map((t, i) => ({ t, m: w[i]!.median! })).sort((a, b) => a.m - b.m)[0]!;
    const r = await ask('new haven ct vs bridgeport ct: lowest price but highest growth over the last 3 months');
    // each town's price and its change side by side
    const changes = towns.map((t, i) => {
      const m = new RegExp(`${t}, CT ${money(w[i]!.median!).replace('$', '\\$')} \\(${w[i]!.n.toLocaleString('en-US')} sales, 3 months to ${w[i]!.asOf}\\), ([+-]?[\\d.]+)% over 3 months`).exec(r.answer);
      expect(m, `${t} in ${r.answer}`).not.toBeNull();
      return { t, v: Number(m![1]), shown: m![1]! };
    });
    const top = [...changes].sort((a, b) => b.v - a.v)[0]!;
    expect(changes.filter((c) => c.v === top.v)).toHaveLength(1);
    // before: only the price, ranked the high end (", so Bridgeport, CT is the more expensive")
    expect(r.answer).toContain(`so ${cheapest.t}, CT is the cheaper (${money(cheapest.m)}), and ${top.t}, CT has the higher price change (${top.shown}%)`);
  });
});

describe('a comma list of Connecticut towns is a list of towns, never a neighbourhood and its city', () => {
  it.each([
    ['median price over the last 12 months in Westport, Weston, Wilton CT', ['Westport', 'Weston', 'Wilton']],
    ['median price over the last 12 months in New Canaan, Darien, Norwalk CT', ['New Canaan', 'Darien', 'Norwalk']],
    // (Stamford is named, its figure not checked here: the research oracle's arm's-length rule keeps 3 sales of its 12
    // months, 1,593, that the build leaves out, 1,590: a gap of the oracle's, outside this finding)
    ['median price over the last 12 months in Greenwich, Stamford and Darien, CT', ['Greenwich', 'Darien']],
  ])('%s', async (q, towns) => {
    const r = await ask(q);
    if (/Stamford/.test(q)) expect(r.answer).toMatch(/Stamford, CT \$[\d,]+ \(/);
    // before: "Reading "Westport" as a neighbourhood of Weston, CT, not Westport, CT", Westport's figure dropped
    expect(r.answer).not.toMatch(/neighbourhood/);
    for (const city of towns) {
      const w = await windowSalesOracle({ state: 'CT', city }, 'sfr', 12);
      expect(r.answer, city).toContain(`${city}, CT ${money(w.median!)} (${w.n.toLocaleString('en-US')} sales, 12 months to ${w.asOf})`);
    }
  });
});

describe('Manhattan Beach: the Brooklyn neighbourhood alone, the California city with its state, which has no sales', () => {
  it('with California named, no sales are said, never Brooklyn\'s figures', async () => {
    // no source holds a sale there: no arm's-length sale of the city in the canonical sales, none in the raw files of
    // the only California source (Sacramento)
    const [n] = await sql<{ arms: number; raw: number }>(`select (select count(*) from oracle_arms where state_code = 'CA' and lower(city) = 'manhattan beach')::int as arms,
      (select count(*) from raw.sacramento__sales where upper(city) like '%MANHATTAN%')::int as raw`);
    expect(n).toEqual({ arms: 0, raw: 0 });
    for (const q of ['median price in manhattan beach ca', 'median price in manhattan beach, california', 'Manhattan Beach, CA home prices']) {
      const r = await ask(q);
      expect(r.answer, q).toMatch(/^We have no single-family sales for a median sale price in Manhattan Beach, CA\b/);
      expect(r.answer, q).not.toMatch(/Brooklyn|11235|\$/);
      expect(r.confidence).toBe('low');
    }
  });
  it('named alone, it stays the Brooklyn neighbourhood, said not to be Manhattan Beach, CA', async () => {
    const r = await ask('median price in Manhattan Beach');
    expect(r.answer).toMatch(/^Reading "Manhattan Beach" as the New York neighbourhood MANHATTAN BEACH \(Brooklyn\), as its sales records name it: its sales lie in zip 11235, not Manhattan Beach, CA: /);
  });
});
