// The investor overview's `confidence` and `coverage` of Philadelphia and Denver, every window 3-24 months, over HTTP
// against the RAW files (h77 audit: their rates and flips were checked against the raw files, h74-market-sample and
// investor-raw-philadelphia, but their confidence and covered days only against an oracle over the build's tables,
// values-market.test.ts). market.md mart_investor `confidence`: the lower of the band of the window's sales for value
// naming a buyer (low < 20, medium 20-49, high 50+) and the band of its covered days (high from 90%, medium from 50%),
// the covered days those of the file's arm's-length span cut to its solid months (oracle-raw-investor-coverage.ts):
// Philadelphia's roll is solid in 2022-09..11 only, Denver's deeds end in a thin July 2019.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { knownBuyerSales, solidSpan, type OneFileCity, type Span } from '../helpers/oracle-raw-investor-coverage.ts';
import { band } from '../helpers/oracle-market.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import { rawHeader } from '../../scripts/raw-lines.ts';

const MONTHS = Array.from({ length: 22 }, (_, i) => i + 3);
const CITIES: [OneFileCity, string, string][] = [['philadelphia', 'Philadelphia', 'PA'], ['denver', 'Denver', 'CO']];
const api = serveSharedBuild('pro', 100_000);
const spans = new Map<OneFileCity, Span>();

beforeAll(async () => { for (const [src] of CITIES) spans.set(src, await solidSpan(src)); }, 300_000);

const DAY = 86_400_000;
const days = (a: string, b: string): number => Math.round((Date.parse(b) - Date.parse(a)) / DAY) + 1;
const coverageBand = (covered: number, asked: number): string => (covered >= 0.9 * asked ? 'high' : covered >= 0.5 * asked ? 'medium' : 'low');
const lower = (a: string, b: string): string => (a === 'low' || b === 'low' ? 'low' : a === 'medium' || b === 'medium' ? 'medium' : 'high');

describe('investor overview confidence and covered days of the one-file cities against the raw files', () => {
  test('the raw spans: Philadelphia 2022-09-01..2022-11-30, Denver\'s deeds to the end of June 2019', () => {
    expect(spans.get('philadelphia')).toEqual({ first: '2022-09-01', last: '2022-11-30' });
    expect(spans.get('denver')!.last).toBe('2019-06-30');
  });

  test.each(CITIES)('%s, months 3-24: coverage and confidence', async (src, city, state) => {
    const span = spans.get(src)!;
    const bad: string[] = [];
    const seen = new Set<string>();
    let known: Map<number, number> | null = null;
    for (const months of MONTHS) {
      const res = await api.get(`/v1/market/investor-overview?city=${city}&state=${state}&months=${months}`);
      expect(res.status).toBe(200);
      const b = (await res.json()) as { confidence: string; as_of: string; coverage: Record<string, unknown> };
      known ??= await knownBuyerSales(src, b.as_of, MONTHS);
      const start = b.coverage['window_start'] as string;
      const lo = start > span.first ? start : span.first, hi = b.as_of < span.last ? b.as_of : span.last;
      const covered = lo <= hi ? days(lo, hi) : 0;
      const want = { window_end: b.as_of, records_start: covered ? lo : null, records_end: covered ? hi : null, records_days: covered,
        confidence: lower(band(known.get(months) ?? 0), coverageBand(covered, days(start, b.as_of))) };
      const got = { window_end: b.coverage['window_end'], records_start: b.coverage['records_start'], records_end: b.coverage['records_end'],
        records_days: b.coverage['records_days'], confidence: b.confidence };
      if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(`${months}: api ${JSON.stringify(got)}, raw ${JSON.stringify(want)} (${known.get(months)} known buyers)`);
      seen.add(b.confidence);
    }
    expect(bad).toEqual([]);
    expect(seen.size, 'the windows reach two bands').toBeGreaterThanOrEqual(2);
  }, 300_000);

  // the King County, Sacramento and Connecticut files name no buyer (SOURCE.md: no grantee column) and no distress
  // source covers these cities: the confidence count is 0 in every window, so low however many sales they hold
  test.each([['Seattle', 'WA'], ['Bellevue', 'WA'], ['Sacramento', 'CA'], ['Stamford', 'CT'], ['Hartford', 'CT']])('%s, %s, months 3-24: low, no buyer named', async (city, state) => {
    const got = new Set<string>();
    for (const months of MONTHS) {
      const res = await api.get(`/v1/market/investor-overview?city=${city}&state=${state}&months=${months}`);
      expect(res.status).toBe(200);
      got.add(((await res.json()) as { confidence: string }).confidence);
    }
    expect([...got]).toEqual(['low']);
    const file = { WA: 'king-county-wa-house-sales/kc_house_data.csv.gz', CA: 'sacramento-real-estate-transactions/sacramento_transactions.csv.gz',
      CT: 'connecticut-real-estate-sales/real_estate_sales_2022-01_2022-09_listyear2021.csv.gz' }[state]!;
    expect(rawHeader(SHARED_DATA, file).filter((c) => /buyer|grantee|owner/i.test(c)), `${file}: no buyer column`).toEqual([]);
  }, 120_000);
});
