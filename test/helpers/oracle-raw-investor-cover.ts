// The investor overview's `coverage` and `confidence` recomputed from the RAW sales files by warehouse/docs/market.md
// "mart_investor" (Window, `confidence`) and "Coverage of a window" (the solid-month rule, oracle-raw-coverage.ts),
// without the build's marts or int_market_file_coverage: the window ends at the city's sales source's latest
// arm's-length sale (`as_of`); its covered days are those every sales file of that source covers with full volume;
// `confidence` is the lower of the count band of the sample (sales for value whose buyer name is known: Philadelphia's
// owner names, Denver's grantee; none for NYC, Sacramento and Connecticut, whose files name no buyer) and the coverage
// band (high at 90% of the window's days, medium at 50%). Used by test/api/h75-investor-cover-raw.test.ts.
import { RAW_MARKET_SALES, dataFile, rawQuery, PHILADELPHIA_DATE, PHILADELPHIA_ROWS } from './oracle-raw-comps.ts';
import { CT_SALES } from './oracle-ct.ts';
import { DENVER_DEEDS } from './oracle-denver.ts';
import { coveredIn, coveredRuns, dayNo, dayOf, fileMonths, rawSourceSpans, windowFirst } from './oracle-raw-coverage.ts';
import { rawIsInvestor } from './oracle-raw-investor.ts';

/** A city of a sales source: its name and state as the API is asked, and its known-buyer sales for value by day. */
export interface RawCity { src: string; state: string; city: string; known: string[] }

export interface RawInvestorInputs {
  cities: RawCity[];
  /** source -> its latest arm's-length sale (the window's end) */
  asOf: Map<string, string>;
  /** source -> its files' covered runs */
  covered: ReturnType<typeof coveredRuns>;
}

const BOROUGHS: Record<string, string> = { 1: 'Manhattan', 2: 'Bronx', 3: 'Brooklyn', 4: 'Queens', 5: 'Staten Island' };
const BUYER = "concat_ws(' ', nullif(trim(owner_1), ''), nullif(trim(owner_2), ''))";

/** Every city of NYC (the city and its boroughs), Sacramento (the file's `city`), Connecticut (`Town`), Philadelphia
 *  and Denver, with the arm's-length sales of each source by file for the coverage rule. */
export async function rawInvestorInputs(): Promise<RawInvestorInputs> {
  const spans = await rawSourceSpans();
  const market = await rawQuery<{ src: string; d: string; borough: string | null }>(`${RAW_MARKET_SALES}
    select src, strftime(d, '%Y-%m-%d') as d, case when src = 'nyc' then split_part(block, '-', 1) end as borough
    from market where not portfolio and d is not null and src in ('nyc', 'sacramento', 'philadelphia')`);
  const ct = await rawQuery<{ town: string; d: string; file: string }>(`select town, strftime(day, '%Y-%m-%d') as d, file from ${CT_SALES}`);
  const denver = await rawQuery<{ d: string; buyer: boolean; forvalue: boolean; arms: boolean }>(`${DENVER_DEEDS()}
    select strftime(d, '%Y-%m-%d') as d, buyer is not null as buyer, forvalue, arms from deeds`);
  // Sacramento's cities: the file's own city column over the rows its arm's-length sales come from (price >= $10,000,
  // a type the adapter reads: Shingle Springs' one sale is of type "Unkown", no sale of the market's)
  const sac = await rawQuery<{ city: string }>(`select distinct trim(city) as city
    from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
    where try_cast(price as double) >= 10000 and nullif(trim(city), '') is not null and "type" in ('Residential', 'Condo', 'Multi-Family')`);
  // Philadelphia's sales for value with a known buyer: every recorded sale of $10,000 or more whose owner names exist
  const phl = await rawQuery<{ d: string }>(`select strftime(${PHILADELPHIA_DATE}, '%Y-%m-%d') as d from ${PHILADELPHIA_ROWS}
    where try_cast(sale_price as double) >= 10000 and ${rawIsInvestor(BUYER)} is not null and ${PHILADELPHIA_DATE} is not null`);

  const rows = [
    ...market.map((r) => ({ src: r.src, d: r.d, file: spans.get(r.src)!.findIndex((s) => s.first <= r.d && r.d <= s.last) as string | number })),
    ...ct.map((r) => ({ src: 'connecticut', d: r.d, file: r.file })),
    ...denver.filter((r) => r.arms).map((r) => ({ src: 'denver', d: r.d, file: 0 })),
  ];
  const { counts, ends } = fileMonths(rows);
  const asOf = new Map([...ends].map(([src, files]) => [src, dayOf(Math.max(...[...files.values()].map(([, b]) => b)))]));
  const cities: RawCity[] = [
    { src: 'nyc', state: 'NY', city: 'New York', known: [] },
    ...Object.values(BOROUGHS).map((b) => ({ src: 'nyc', state: 'NY', city: b, known: [] })),
    ...sac.map((r) => ({ src: 'sacramento', state: 'CA', city: r.city, known: [] })),
    ...[...new Set(ct.map((r) => r.town))].map((t) => ({ src: 'connecticut', state: 'CT', city: t, known: [] })),
    { src: 'philadelphia', state: 'PA', city: 'Philadelphia', known: phl.map((r) => r.d) },
    { src: 'denver', state: 'CO', city: 'Denver', known: denver.filter((r) => r.forvalue && r.buyer).map((r) => r.d) },
  ];
  return { cities, asOf, covered: coveredRuns(counts, ends) };
}

export interface RawInvestorCover {
  coverage: { window_start: string; window_end: string; window_days: number; records_start: string | null; records_end: string | null; records_days: number };
  sample: number; confidence: string;
}

const byCount = (n: number): number => (n >= 50 ? 2 : n >= 20 ? 1 : 0);
const byCover = (days: number, of: number): number => (days >= 0.9 * of ? 2 : days >= 0.5 * of ? 1 : 0);

/** A city's window of `months`: its coverage, sample and confidence by the documented rule. */
export function rawInvestorCover(inp: RawInvestorInputs, c: RawCity, months: number): RawInvestorCover {
  const end = inp.asOf.get(c.src)!;
  const first = windowFirst(end, months), last = dayNo(end);
  const cov = coveredIn(inp.covered.get(c.src) ?? [], first, last);
  const sample = c.known.filter((d) => dayNo(d) >= first && dayNo(d) <= last).length;
  const level = Math.min(byCount(sample), byCover(cov.days, last - first + 1));
  return {
    coverage: { window_start: dayOf(first), window_end: end, window_days: last - first + 1, records_start: cov.start, records_end: cov.end, records_days: cov.days },
    sample, confidence: ['low', 'medium', 'high'][level]!,
  };
}
