// Values over HTTP for the market endpoints: comps (every property_type x months 3, omitted, 6, 12, 24), rehab score
// and investor overview (months short, default, long), for places from every sales, permit and distress source,
// against the independent oracle of test/helpers/oracle-market.ts (its own SQL over the canonical tables and the raw
// files, the rules of warehouse/docs/market.md; never the marts or the shards). A route that answered another
// property type or lookback than the one asked for gets another cohort's figures and fails here.
//
// Tolerances: the shards round (pipelines/shards/{comps,rehab,investor}.sql; market.md names no rounding) price per
// sqft to 2 decimals, days on market, scores, trend and the investor percentages and days to 1, the list-to-sale
// ratio to 4; numbers are compared within half a unit of that last place. Counts, labels, bands and dates are exact.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { diffAnswer, MarketOracle, NON_PLACE_COUNTIES, PROPERTY_TYPES, type CompsAnswer, type InvestorAnswer, type RehabAnswer } from '../helpers/oracle-market.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

const SOURCES = SHARED_DATA;

let srv: TestServer;
let oracle: MarketOracle;
let key: string;

beforeAll(async () => {
  srv = await startTestServer(artifactsDir());
  key = srv.key('builder', 100_000); // many calls from one key: lift the per-minute limit (limits are tested elsewhere)
  oracle = await MarketOracle.open(path.join(buildDir(), 'warehouse.duckdb'), SOURCES);
});
afterAll(async () => {
  oracle.close();
  await srv.close();
});

async function get<T>(pathAndQuery: string): Promise<{ status: number; body: T }> {
  const res = await srv.get(pathAndQuery, key);
  return { status: res.status, body: (await res.json()) as T };
}

/** A query string from the parameters that are set (an omitted parameter is left out of the URL). */
function qs(params: Record<string, string | number | null>): string {
  const set = Object.entries(params).filter((e): e is [string, string | number] => e[1] !== null);
  return new URLSearchParams(set.map(([k, v]): [string, string] => [k, String(v)])).toString();
}

const half = (decimals: number): number => 0.5 * 10 ** -decimals;
const COMPS_TOLERANCE = { 'price_per_sqft.p25': half(2), 'price_per_sqft.median': half(2), 'price_per_sqft.p75': half(2), 'days_on_market.median': half(1), list_to_sale_ratio: half(4) };
const REHAB_TOLERANCE = { rehab_momentum_score: half(1), trend_pct: half(1) };
const INVESTOR_TOLERANCE = { investor_purchase_rate_pct: half(1), flip_velocity_days: half(1), gross_flip_margin_pct: half(1) };

/** Distinct answers among a set (JSON, numbers rounded as the shards round them). */
function distinct(answers: unknown[]): number {
  return new Set(answers.map((a) => JSON.stringify(a, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v)))).size;
}

// ---------------------------------------------------------------------------------------------------------- comps

const MONTHS = [3, 6, 12, 24];
const COMPS_ZIPS = [
  // King County WA: house sales only (other types: empty cohorts), windows ending 2015
  { zip: '98103', label: 'King County WA 98103 (Seattle)' },
  // NYC: sfr 13/26/45/53 comps at 3/6/12/24 months (low, medium, medium, medium: 24 months are half covered), commercial 0/0/5/6 (the cohort floor),
  // condo and land sales without a living area (suppressed)
  { zip: '11204', label: 'NYC 11204 (Brooklyn)' },
  // Philadelphia OPA (last sale per parcel): multi 15/19/19/20 (low -> medium), commercial under 5
  { zip: '19139', label: 'Philadelphia 19139' },
  // Sacramento (one week of 2008): condo exactly 5 comps
  { zip: '95842', label: 'Sacramento 95842' },
  // Sacramento 95823: condo 1 comp (2008-05-16) in a window ending later: a cohort of 1 gives no date of its own
  { zip: '95823', label: 'Sacramento 95823 (a 1-comp cohort)' },
  // Connecticut: no living area anywhere (every cohort suppressed); no days on market nor sale-to-list: the zip's one
  // Redfin row with a recorded type (All Residential, 1 home sold, 90 days to 2024-01-31) lies after the window's end
  // (2023-09-27) and below the minimum cohort (test/api/comps-redfin.test.ts). East Hampton's village Cobalt (06350, Hanover in Sprague, which held
  // it before, had only Lisbon and Canterbury sales guessed into another town's zip)
  { zip: '06414', label: 'Connecticut 06414 (a Redfin row that cannot stand for the window)' },
  // Enfield's sales have points and no zip: the nearest ZCTA, 06082 (06083 is Enfield's PO-box zip, never guessed)
  { zip: '06082', label: 'Connecticut 06082 (Enfield)' },
  // Stamford: 28 arm's-length sales, none with a living area: the note says why the figures are null
  { zip: '06907', label: 'Connecticut 06907 (Stamford: sales without a living area)' },
];

/** The answer without its additive `source` (the sales source's name: test/api/market-source.test.ts checks it). */
const unsourced = <T>(body: T): T => {
  if (body === null || typeof body !== 'object') return body;
  const { source: _source, ...rest } = body as Record<string, unknown>;
  return rest as T;
};

describe('GET /v1/market/comps: figures equal an independent computation', () => {
  test.each(COMPS_ZIPS)('$label: every property_type x months 3, omitted, 6, 12, 24', async ({ zip }) => {
    const want = await oracle.comps(zip, MONTHS);
    expect(want, `${zip} has sales`).not.toBeNull();
    const cases = [...PROPERTY_TYPES.flatMap((t) => [3, null, 6, 12, 24].map((m) => ({ type: t as string | null, months: m }))),
      // property_type omitted: sfr
      { type: null, months: null }, { type: null, months: 12 }];
    const answers = await Promise.all(cases.map((c) => get<CompsAnswer>(`/v1/market/comps?${qs({ zip, property_type: c.type, months: c.months })}`)));
    const problems: string[] = [];
    const got = new Map<string, CompsAnswer>();
    cases.forEach((c, i) => {
      const { status, body } = answers[i]!;
      const id = `${c.type ?? 'sfr'}-${c.months ?? 6}`;
      const label = `comps ${zip} property_type=${c.type ?? '(omitted)'} months=${c.months ?? '(omitted)'}`;
      if (status !== 200) return void problems.push(`${label}: status ${status} ${JSON.stringify(body)}`);
      problems.push(...diffAnswer(label, unsourced(body), want!.get(id), COMPS_TOLERANCE));
      got.set(id, body);
    });
    expect(problems).toEqual([]);
    // the answers the oracle tells apart, the server tells apart too: a route that dropped the type or the
    // lookback would repeat one cohort's answer
    for (const [a, wa] of want!) {
      for (const [b, wb] of want!) {
        if (a < b && distinct([wa, wb]) === 2) expect(JSON.stringify(got.get(a)), `${zip} ${a} vs ${b}`).not.toBe(JSON.stringify(got.get(b)));
      }
    }
  });

  test('the chosen cohorts tell types and lookbacks apart (else the test above could not see a dropped parameter)', async () => {
    const nyc = (await oracle.comps('11204', MONTHS))!;
    // at 12 months: five types, at least three different answers (sfr, multi, commercial have comps)
    expect(distinct(PROPERTY_TYPES.map((t) => nyc.get(`${t}-12`)))).toBeGreaterThanOrEqual(3);
    for (const t of ['sfr', 'multi'] as const) expect(distinct(MONTHS.map((m) => nyc.get(`${t}-${m}`))), t).toBe(4);
    // 24 months: 53 comps, but NYC's two files cover 397 of the window's 731 days (market.md "Coverage of a window")
    expect(MONTHS.map((m) => nyc.get(`sfr-${m}`)!.confidence)).toEqual(['low', 'medium', 'medium', 'medium']);
    expect(MONTHS.map((m) => nyc.get(`commercial-${m}`)!.sample_count)).toEqual([null, null, 5, 6]);
    const kc = (await oracle.comps('98103', MONTHS))!;
    expect(distinct(MONTHS.map((m) => kc.get(`sfr-${m}`)))).toBe(4);
    const ct = (await oracle.comps('06414', MONTHS))!;
    // every type and window alike: no comps, no days on market (review of build e70dbe: 58 from one 2024 sale before)
    expect(distinct(['sfr', 'condo', 'multi'].flatMap((t) => MONTHS.map((m) => ct.get(`${t}-${m}`)!.days_on_market)))).toBe(1);
    expect(ct.get('sfr-6')!.days_on_market.median).toBeNull();
    expect((await oracle.comps('95842', MONTHS))!.get('condo-6')!.sample_count).toBe(5);
  });

  test('note: a window whose sales record no living area says so (Connecticut records none, a count below 5 not given); a type without sales, and missing list data, say so too', async () => {
    const [stamford, land, seattle] = await Promise.all([get<CompsAnswer>('/v1/market/comps?zip=06907'), get<CompsAnswer>('/v1/market/comps?zip=06907&property_type=land'),
      get<CompsAnswer>('/v1/market/comps?zip=98103')]);
    expect(stamford.body).toMatchObject({ sample_count: null, price_per_sqft: { median: null }, confidence: 'low' });
    // the count is the oracle's (its own SQL over the canonical sales): 21 before Connecticut zips kept to their town
    // (after the coverage clause: Stamford's zip-keyed sales are the head-of-file extract's, a thin one: review 15)
    expect(stamford.body.note).toMatch(/^sales records cover none of the \d+ days asked whole: the zip's sales in the window come from a partial extract[^;]*; (\d+|fewer than 5) arm's-length sales of this type in the window, none with a recorded living area/);
    expect(stamford.body.note).toBe((await oracle.comps('06907', [6]))!.get('sfr-6')!.note);
    // land: no sale, and Redfin is residential only; Seattle 2015: comps, but no list data and no Redfin snapshot near 2015
    expect(land.body.note).toMatch(/^sales records cover none of [^;]*; no arm's-length sale of this type in the window: no price per square foot; no days on market or list-to-sale ratio: .*residential types only$/);
    expect(seattle.body).toMatchObject({ days_on_market: { median: null }, list_to_sale_ratio: null });
    expect(seattle.body.sample_count).not.toBeNull();
    expect(seattle.body.note).toMatch(/^no days on market or list-to-sale ratio: fewer than 5 comps of the window record a list date and price, and no Redfin zip snapshot stands for the window/);
    expect([land.body.note, seattle.body.note]).toEqual([(await oracle.comps('06907', [6]))!.get('land-6')!.note, (await oracle.comps('98103', [6]))!.get('sfr-6')!.note]);
  });

  test('Denver: its sales files carry no zip, so a Denver zip has no comps (404), whatever the type', async () => {
    expect(await oracle.comps('80205', MONTHS)).toBeNull();
    const answers = await Promise.all(PROPERTY_TYPES.map((t) => get<{ message: string }>(`/v1/market/comps?${qs({ zip: '80205', property_type: t, months: 12 })}`)));
    expect(answers.map((a) => a.status)).toEqual(PROPERTY_TYPES.map(() => 404));
  });
});

// ---------------------------------------------------------------------------------------------------------- rehab

const REHAB_ZIPS = [
  { zip: '37206', label: 'Nashville 37206 (permit applications)' },
  { zip: '37228', label: 'Nashville 37228 (few permits)' },
  { zip: '37086', label: 'Nashville 37086 (rehab permits without a declared cost)' },
  { zip: '37143', label: 'Nashville 37143 (permits, none of them rehab)' },
  { zip: '60614', label: 'Chicago 60614' },
  // Chicago permits guessed into 60406 (Blue Island) had no Chicago land there: gone since the guess keeps to Chicago's ZCTAs
  // 60827 is Riverdale's zip (Chicago holds part of it): Chicago's guessed-zip permits no longer score it (review 4)
  { zip: '60827', label: 'Riverdale 60827 (Chicago permits guessed into a suburb\'s zip: no score)' },
  { zip: '60633', label: 'Chicago 60633 (imputed zips, few permits)' },
  { zip: '98103', label: 'King County 98103 (sales only: renovation years and resales)' },
  // its last sale is on King County's last day, 2015-05-27; the file is complete through 05-10, where its trend ends
  { zip: '98115', label: 'King County 98115 (trend ends where the file is complete)' },
  { zip: '11204', label: 'NYC 11204 (sales only: quick resales)' },
  { zip: '19139', label: 'Philadelphia 19139 (one sale per parcel: nothing to score)' },
];

describe('GET /v1/market/rehab-score: figures equal an independent computation', () => {
  test.each(REHAB_ZIPS)('$label: months 3, omitted, 6, 12, 24', async ({ zip }) => {
    const want = await oracle.rehab(zip, MONTHS);
    const cases = [3, null, 6, 12, 24];
    const answers = await Promise.all(cases.map((m) => get<RehabAnswer>(`/v1/market/rehab-score?${qs({ zip, months: m })}`)));
    const problems: string[] = [];
    cases.forEach((m, i) => {
      const { status, body } = answers[i]!;
      const label = `rehab ${zip} months=${m ?? '(omitted)'}`;
      const w = want.get(m ?? 6)!;
      if (w === null) {
        if (status !== 404) problems.push(`${label}: status ${status}, want 404 (no computable component)`);
      } else if (status !== 200) {
        problems.push(`${label}: status ${status} ${JSON.stringify(body)}`);
      } else {
        problems.push(...diffAnswer(label, unsourced(body), w, REHAB_TOLERANCE));
      }
    });
    expect(problems).toEqual([]);
  });

  test('the chosen zips tell lookbacks apart', async () => {
    for (const zip of ['37206', '60614', '60633', '98103']) {
      const want = await oracle.rehab(zip, MONTHS);
      expect(distinct(MONTHS.map((m) => want.get(m)!.rehab_momentum_score)), zip).toBeGreaterThanOrEqual(3);
    }
    // confidence moves with the lookback where the counts cross a band
    const small = await oracle.rehab('60633', MONTHS);
    expect(new Set(MONTHS.map((m) => small.get(m)!.confidence)).size).toBeGreaterThan(1);
  });
});

// ---------------------------------------------------------------------------------------------------------- investor

const INVESTOR_CITIES = [
  { state: 'CO', city: 'Denver', label: 'Denver CO (buyer names: purchase rate and flips)' },
  { state: 'PA', city: 'Philadelphia', label: 'Philadelphia PA (buyer names and portfolio deeds: the rate counts every sale for value)' },
  { state: 'PA', city: 'Pittsburgh', label: 'Pittsburgh PA (Allegheny foreclosure pipeline)' },
  { state: 'KY', city: 'Louisville', label: 'Louisville KY (lien pipeline)' },
  { state: 'WA', city: 'Kent', label: 'Kent WA (King County: no buyer names, no distress source)' },
  { state: 'PA', city: 'Penn Hills Township', label: 'Penn Hills Township PA (no Census place: the tier of its county, Allegheny)' },
  { state: 'CT', city: 'Norwich', label: 'Norwich CT (a secondary metro)' },
];

describe('GET /v1/market/investor-overview: figures equal an independent computation', () => {
  test.each(INVESTOR_CITIES)('$label: months 3, 6, omitted, 12, 24', async ({ state, city }) => {
    const want = await oracle.investor(state, city, MONTHS);
    const cases = [3, 6, null, 12, 24];
    const answers = await Promise.all(cases.map((m) => get<InvestorAnswer>(`/v1/market/investor-overview?${qs({ city, state, months: m })}`)));
    const problems: string[] = [];
    cases.forEach((m, i) => {
      const { status, body } = answers[i]!;
      const label = `investor ${city}, ${state} months=${m ?? '(omitted)'}`;
      const w = want.get(m ?? 12)!;
      if (w === null) problems.push(`${label}: the oracle finds no record (test data moved?)`);
      else if (status !== 200) problems.push(`${label}: status ${status} ${JSON.stringify(body)}`);
      else problems.push(...diffAnswer(label, unsourced(body), w, INVESTOR_TOLERANCE));
    });
    expect(problems).toEqual([]);
  });

  test('the chosen cities tell lookbacks apart', async () => {
    const denver = await oracle.investor('CO', 'Denver', MONTHS);
    expect(distinct(MONTHS.map((m) => denver.get(m)!.investor_purchase_rate_pct))).toBe(4);
    for (const [state, city] of [['PA', 'Pittsburgh'], ['KY', 'Louisville']] as const) {
      const want = await oracle.investor(state, city, MONTHS);
      expect(distinct(MONTHS.map((m) => want.get(m)!.distressed_pipeline_count)), city).toBe(4);
    }
    expect((await oracle.investor('CT', 'Norwich', [12])).get(12)!.market_tier).toBe('secondary');
  });

  // a town or township that is no Census place takes its county's CBSA tier (list1_Jul_2023.csv and ACS county
  // populations), not 'rural by rule': Fairfield CT is in CBSA 14860 (secondary, as Stamford), Mount Lebanon in
  // Pittsburgh's and El Dorado in Sacramento's (primary)
  test.each([['CT', 'Fairfield'], ['CT', 'Darien'], ['CT', 'Westport'], ['CT', 'Madison'], ['PA', 'Mount Lebanon Township'], ['CA', 'El Dorado']])(
    '%s %s: the market tier of its county', async (state, city) => {
      expect(NON_PLACE_COUNTIES[`${state}|${city.toLowerCase()}`]).toBeDefined();
      const want = await oracle.tier(state, city);
      expect(want).not.toBe('rural');
      const { status, body } = await get<InvestorAnswer>(`/v1/market/investor-overview?${qs({ city, state })}`);
      expect(status).toBe(200);
      expect(body.market_tier).toBe(want);
    });
});
