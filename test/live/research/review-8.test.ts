// The eighth research review's findings (answers side), over the shared real build on the suite's pinned clock.
// Figures are read from the build's own endpoint shards or recomputed from its base tables, never hard-coded.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { readShard, warehouseRows } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';

let engine: ResearchEngine;
const ask = (query: string, depth: 'quick' | 'deep' = 'quick') => engine.answer({ query, depth });

beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });

describe('finding 2: distressed properties, foreclosures, tax delinquent: the distressed pipeline', () => {
  const pipeline = (city: string, months: number): number => readShard<{ distressed_pipeline_count: number }>(`market/investor/PA/${city}/${months}.json`).distressed_pipeline_count;
  it('answers a distress question of a city with its pipeline, never the investor ranking nor a sales count', async () => {
    const cases: [string, string, number][] = [
      ['distressed properties in Penn Hills, PA', 'penn-hills-township', 12],
      ['how many distressed properties in Penn Hills last 6 months', 'penn-hills-township', 6],
      ['foreclosures in Penn Hills, PA', 'penn-hills-township', 12],
      ['pre-foreclosures in Pittsburgh PA', 'pittsburgh', 12],
      ['tax delinquent properties in Pittsburgh', 'pittsburgh', 12],
      ['foreclosure filings in Pittsburgh', 'pittsburgh', 12],
    ];
    for (const [q, city, months] of cases) {
      const r = await ask(q);
      expect(r.answer, q).toContain(`${pipeline(city, months).toLocaleString('en-US')} distressed properties (mortgage foreclosure filings, the only kind its records hold`); // Allegheny's file holds mortgage foreclosures only (review 29)
      // a kind asked (pre-foreclosures) leads with that kind's count, every kind's beside it (review 22: distress-kinds.ts)
      expect(r.answer, q).toContain(` are in the pipeline over the ${months} months`);
      expect(r.answer, q).not.toMatch(/Investor purchase rates|judicial|sales for|single-family/);
    }
  });
  it('never answers distress with no city by the investor purchase-rate ranking; the foreclosure law stays the law', async () => {
    const r = await ask('distressed properties');
    expect(r.answer).not.toMatch(/Investor purchase rates|%/);
    expect(r.answer).toMatch(/counted per city/);
    const law = await ask('how do foreclosures work in Texas');
    expect(law.answer).toMatch(/non-judicial/);
    expect(law.answer).not.toMatch(/distressed/);
  });
});

describe('finding 4: a bare year is the year asked', () => {
  interface Series { series: { month: string[]; sales_count: (number | null)[] } }
  /** The months of `year` in a trends shard (the series GET /v1/market/trends serves) and their summed sales. */
  const yearOf = (rel: string, year: number): { months: string[]; n: number } => {
    const s = readShard<Series>(`market/trends/${rel}.json`).series;
    const idx = s.month.map((m, i) => ({ m, i })).filter((x) => x.m.startsWith(`${year}-`) && (s.sales_count[x.i] ?? 0) > 0);
    return { months: idx.map((x) => x.m), n: idx.reduce((a, x) => a + s.sales_count[x.i]!, 0) };
  };
  it('answers "median home price denver co 2018" as "in 2018", never the latest month', async () => {
    const cases: [string, string, number, string][] = [
      ['median home price denver co 2018', 'city/CO/denver/sfr', 2018, 'single-family'],
      ['Denver 2018 median price', 'city/CO/denver/sfr', 2018, 'single-family'],
      ['nyc condo prices 2023', 'city/NY/new-york/condo', 2023, 'condo'],
      ['median sale price seattle 2014', 'city/WA/seattle/sfr', 2014, 'single-family'],
    ];
    for (const [q, rel, year, noun] of cases) {
      const { months, n } = yearOf(rel, year);
      expect(months.length, q).toBeGreaterThan(0);
      const r = await ask(q);
      expect(r.answer, q).toContain(`in ${year} there were ${n.toLocaleString('en-US')} arm's-length ${noun} sales`);
      expect(r.answer, q).toContain(`${months[0]} to ${months.at(-1)}`);
      expect(r.answer, q).toBe((await ask(q.replace(String(year), `in ${year}`))).answer);
    }
  });
  it('does not read a house number, a price or a quantity as a year', async () => {
    const { parseYears } = await import('../../../live/research/years.ts');
    for (const q of ['2018 Main St Denver price', '1999 N Main St', '$2018 homes', '2000 sq ft homes in Denver', 'homes under $2,018', 'zip 20181']) expect(parseYears(q), q).toBeNull();
    // a date is its month, said (review 18, period-read.ts), never its year alone
    expect(parseYears('2019-05-12 sales')).toMatchObject({ from: 2019, to: 2019, month: '2019-05', label: 'May 2019' });
  });
});

describe('finding 5: a Connecticut year answer says its "single-family" sales are all residential sales', () => {
  it('states how many of the year\'s sales come from the 2022 file (untyped), at low confidence', async () => {
    for (const [q, city] of [['how many homes sold in Bridgeport CT in 2022', 'bridgeport'], ['Stamford home prices in 2022', 'stamford']] as const) {
      const s = readShard<{ series: { month: string[]; sales_count: (number | null)[]; untyped_count: number[] } }>(`market/trends/city/CT/${city}/sfr.json`).series;
      const idx = s.month.map((_, i) => i).filter((i) => s.month[i]!.startsWith('2022-'));
      const untyped = idx.reduce((a, i) => a + (s.untyped_count[i] ?? 0), 0);
      const sales = idx.reduce((a, i) => a + (s.sales_count[i] ?? 0), 0);
      expect(untyped, q).toBeGreaterThan(0);
      const r = await ask(q);
      expect(r.answer, q).toContain(`in 2022 there were ${sales.toLocaleString('en-US')} arm's-length single-family sales`);
      expect(r.answer, q).toContain(`(${untyped >= sales ? 'all of these sales' : `${untyped.toLocaleString('en-US')} of these sales`} come from Connecticut's 2022 sales file, which does not tell single-family homes from condos and 2-4 family houses`);
      expect(r.confidence, q).toBe('low');
    }
  });
});

describe('finding 6: a city or county named with its own record on the topic leads with that record', () => {
  interface Reg { id: string; title: string; source_citation: string | null }
  const record = async (id: string): Promise<Reg> => (await warehouseRows<Reg>(`select id, title, source_citation from regulations where id = $id`, { id }))[0]!;
  it('answers good or just cause eviction of New York City, Seattle, San Francisco with the city record first', async () => {
    const cases: [string, string][] = [
      ['good cause eviction in New York City', 'ny-city-new-york-good-cause-eviction'],
      ['NYC good cause eviction', 'ny-city-new-york-good-cause-eviction'],
      ['Good Cause Eviction law New York', 'ny-city-new-york-good-cause-eviction'],
      ['just cause eviction in seattle', 'wa-city-seattle-just-cause'],
      ['does SF have just cause eviction', 'ca-city-san-francisco-just-cause'],
    ];
    for (const [q, id] of cases) {
      const rec = await record(id);
      expect(rec, id).toBeDefined();
      const r = await ask(q);
      expect(r.answer.split(/(?<=\)\.) /)[0], q).toContain(rec.title);
      expect(r.sources[0]!.citation, q).toBe(rec.source_citation);
      expect(r.confidence, q).not.toBe('high');
    }
    // New York has no statewide rule recorded: said, with the city rule named as the city's
    expect((await ask('good cause eviction in New York City')).answer).toContain('We have no statewide just-cause eviction requirement recorded for New York (the rule above is recorded for New York City only)');
  });
  it('answers rent control in Montgomery County MD with the county ordinance', async () => {
    const rec = await record('md-county-montgomery-rent-stabilization');
    const r = await ask('rent control in Montgomery County MD');
    expect(r.answer).toMatch(new RegExp(`^Montgomery County has its own ordinance: ${rec.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(r.sources[0]!.citation).toBe(rec.source_citation);
    // a county with no record of its own says so, never "undefined"
    expect((await ask('rent control in King County WA')).answer).toContain('no rent control ordinance recorded for King County');
  });
});

describe('finding 8: the notice before a rent increase is never the nonpayment notice', () => {
  it('says no rent-increase notice is recorded for Oregon, and quotes the record that states one (Washington)', async () => {
    const rows = await warehouseRows<{ id: string; state: string; summary: string; data: string }>(`select id, state_code as state, summary, cast(structured_data as varchar) as data from regulations where state_code in ('OR', 'WA') and status = 'active'`);
    const orNotice = JSON.parse(rows.find((r) => r.id === 'or-eviction-nonpayment-notice')?.data ?? rows.find((r) => r.state === 'OR' && /nonpayment/.test(r.id))!.data) as { notice_days: number };
    // no Oregon record's summary states a notice before a rent increase
    expect(rows.filter((r) => r.state === 'OR' && /\bnotice\b/i.test(r.summary) && /\bincrease/i.test(r.summary))).toEqual([]);
    const o = await ask('how much notice to raise rent in oregon');
    expect(o.answer).toMatch(/^We have no rule recorded on how much notice a landlord must give before raising the rent in Oregon/);
    expect(o.answer).not.toContain(`${orNotice.notice_days} days' notice to pay`);
    expect(o.confidence).not.toBe('high');
    const wa = rows.find((r) => r.id === 'wa-rent-control-statewide-cap')!;
    const said = wa.summary.split(/(?<=\.)\s+(?=[A-Z])/).find((x) => /\bnotice\b/i.test(x) && /\bincrease/i.test(x))!;
    const w = await ask('how much notice to raise rent in washington');
    expect(w.answer).toContain(said.replace(/\.$/, ''));
    expect(w.answer).not.toMatch(/notice to pay the rent or move out before filing/);
  });
});

describe('finding 12: a zip ranking states each zip\'s own window', () => {
  it('names each zip\'s window end when the zips\' windows end on different days', async () => {
    const { readFileSync } = await import('node:fs');
    const { buildDir } = await import('../../helpers/build.ts');
    const market = JSON.parse(readFileSync(`${buildDir()}/live/research/market.json`, 'utf8')) as { windows: Record<string, { as_of: string; n: number[] }> };
    const r = await ask('which zip in Seattle is cheapest');
    const named = [...r.answer.matchAll(/zip (\d{5}) \$[\d,]+ \(([\d,]+) sales to (\d{4}-\d{2}-\d{2})\)/g)];
    expect(named.length).toBeGreaterThanOrEqual(2);
    const ends = new Set<string>();
    for (const [, zip, n, end] of named) {
      const w = market.windows[`zip|${zip}|sfr`]!;
      expect(end, zip).toBe(w.as_of);
      expect(Number(n!.replace(/,/g, '')), zip).toBe(w.n[12 - 3]);
      ends.add(end!);
    }
    expect(r.answer).toMatch(/in the 12 months to each zip's own end \(its latest data, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\)/);
  });
});

describe('finding 13: a year\'s months with fewer than 5 sales are said to be left out', () => {
  it('names Philadelphia\'s thin months of 2022 and how many sales such months hold', async () => {
    const rows = await warehouseRows<{ month: string; raw: number; kept: number | null }>(`
      select month_label as month, sale_count::int as raw, sales_count::int as kept from market_monthly
      where market_kind = 'city' and state_code = 'PA' and city_slug = 'philadelphia' and property_type = 'sfr' order by month_label`);
    const thin = rows.filter((r) => r.kept === null && r.raw > 0);
    const thin2022 = thin.filter((r) => r.month.startsWith('2022-'));
    expect(thin2022.length).toBeGreaterThan(0);
    const kept2022 = rows.filter((r) => r.month.startsWith('2022-') && r.kept !== null).reduce((a, r) => a + r.kept!, 0);
    const r = await ask('median sale price in philadelphia in 2022');
    expect(r.answer).toContain(`in 2022 there were ${kept2022.toLocaleString('en-US')} arm's-length single-family sales`);
    expect(r.answer).toContain(`months with fewer than 5 sales are left out: ${thin2022.length} months, ${thin2022[0]!.month} to ${thin2022.at(-1)!.month} here, ${thin.reduce((a, x) => a + x.raw, 0)} sales over all such months of the data`);
    // a market whose thin months hold no sale says nothing of them
    expect((await ask('median sale price seattle 2014')).answer).not.toMatch(/fewer than 5 sales are left out/);
  });
});

describe('finding 14: "which states have rent control" tells "not preempted" from local rent control recorded', () => {
  it('says per state whether a local ordinance is recorded (warehouse regulations)', async () => {
    const local = new Set((await warehouseRows<{ s: string }>(`select distinct state_code as s from regulations where status = 'active' and category = 'rent_control' and subcategory = 'local_overlay' and json_extract(structured_data, '$.rent_control')::boolean`)).map((r) => r.s));
    const names = new Map((await warehouseRows<{ s: string; n: string }>(`select state_code as s, state_name as n from state_legal`)).map((r) => [r.n, r.s]));
    const r = await ask('which states have rent control', 'deep');
    const listed = [...r.answer.matchAll(/([A-Z][A-Za-z ]+?) \(((?:not|partly) preempted), (local rent control recorded|no local ordinance recorded)\)/g)];
    expect(listed.length).toBeGreaterThan(5);
    for (const [, name, , said] of listed) {
      const st = names.get(name!.trim());
      expect(st, name).toBeDefined();
      expect(said, name).toBe(local.has(st!) ? 'local rent control recorded' : 'no local ordinance recorded');
    }
    expect(r.answer).not.toMatch(/\((local)\)/);
  });
});

describe('finding 15: figures asked by name are answered or said to be missing', () => {
  it('flips, days on market, a change asked as "gone up", zips without zips, no living area, commercial sales', async () => {
    const phl = readShard<{ flip_velocity_days: number | null; investor_purchase_rate_pct: number | null }>('market/investor/PA/philadelphia/12.json');
    expect(phl.flip_velocity_days).toBeNull();
    expect(phl.investor_purchase_rate_pct).not.toBeNull();
    expect((await ask('how many flips in philadelphia')).answer).toContain('and no flip is recorded: no investor purchase in the records was resold within 365 days');
    expect(readShard<{ days_on_market: { median: number | null } }>('market/comps/98103/sfr-6.json').days_on_market.median).toBeNull();
    expect((await ask('how fast are homes selling in 98103')).answer).toContain('no days-on-market figure: the sales records of this zip carry no listing dates');
    const den = readShard<{ summary: { change_12m_pct: number | null } }>('market/trends/city/CO/denver/sfr.json').summary;
    const c12 = `${den.change_12m_pct! > 0 ? '+' : ''}${den.change_12m_pct}%`;
    expect((await ask('did Denver home prices go up')).answer).toMatch(new RegExp(`^In Denver, CO, the single-family median-price index changed \\${c12} over the 12 months`));
    const two = await ask('has denver gone up in the last 2 years');
    expect(two.answer).toMatch(/^In Denver, CO, single-family prices have no 24-month change: the data does not reach back that far/);
    expect(two.answer).toContain(`12 months ${c12}`);
    const [z] = await warehouseRows<{ n: number }>(`select count(*)::int as n from sales where state_code = 'CO' and lower(city) = 'denver' and zip is not null`);
    expect(z!.n).toBe(0);
    expect((await ask('which zip in denver is cheapest')).answer).toMatch(/carry no zip code in the source/);
    const { readFileSync } = await import('node:fs');
    const { buildDir } = await import('../../helpers/build.ts');
    const stam = (JSON.parse(readFileSync(`${buildDir()}/live/research/market.json`, 'utf8')) as { windows: Record<string, { n: number[]; with_area: number[] }> }).windows['city|CT|stamford|sfr']!;
    expect(stam.with_area[6 - 3]).toBe(0);
    const s = await ask('price per sqft in stamford ct');
    expect(s.answer).toMatch(new RegExp(`^Stamford, CT had ${stam.n[6 - 3]!.toLocaleString('en-US')} arm's-length single-family sales in the 6 months to [\\d-]+, but none of them has a living area in the source`));
    expect(s.answer).not.toMatch(/^Zip 06902/);
    const com = readShard<{ series: { median_price: (number | null)[] } }>('market/trends/zip/10001/commercial.json');
    expect(com.series.median_price.some((p) => p !== null)).toBe(true);
    expect((await ask('commercial sales in 10001')).answer).toMatch(/^In zip 10001 \(New York, NY\), (the median commercial sale price was|no complete month of the last \d+ has 20 commercial sales, so they are pooled: the median of the)/);
    // a creative-finance phrase sharing a word ("land contract", "subject to sales") stays a legal question
    for (const q of ['land contract in Columbus, OH', 'subject to sales in Seattle']) expect((await ask(q)).answer, q).not.toMatch(/median (land|single-family) sale price|land sales for/);
  });
  it('words the rehab trend over its own 30 days to trend_end, not the score\'s window', async () => {
    const r = readShard<{ trend: string; trend_end: string; as_of: string }>('market/rehab/60606/6.json');
    expect((await ask('rehab momentum in 60606')).answer).toContain(`over the 6 months to ${r.as_of}, from its building permits alone; its rehab permits (residential renovation, addition and repair permits: no sales record covers this zip, so no rehab resales) in the 30 days to ${r.trend_end} were ${r.trend}`);
  });
});
