// GET /v1/market/trends (issue 23): the answer from a `trends` shard (pipelines/shards/trends.sql), which holds a
// market's 60 months. This keeps the last `months` of them and rebases the price index to the first complete month of
// those with 20 sales, else the first complete one with a value (warehouse/price-index.ts baseMonth(), rebase()); a month
// whose sales are of another subtype mix than the base's has no index (index_note says why); a market whose sales come
// from a partial extract says so (data_note, the research answer's words: live/research/partial.ts); every figure is
// the build's. The route row is in api/routes.ts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HttpError, type FieldError } from './errors.ts';
import type { ParamSpec } from './params.ts';
import type { Reply, Values } from './route.ts';
import type { LoadedBuild } from './builds.ts';
import type { Shard } from './shards.ts';
import { rebase, type IndexMethod } from '../warehouse/price-index.ts';
import { comparable, mixWords, seriesMix, type Mix } from '../warehouse/price-mix.ts';
import { partialSources, type PartialSource } from '../live/research/data.ts';
import { caveatsApplying, caveatWords, extractWords } from '../live/research/partial.ts';
import type { SourceFileSpan } from '../live/research/market-window.ts';
import { coveredOf, coverNote } from '../live/research/month-cover.ts';
import { explainNullChanges } from './trends-change-note.ts';
import { sourceSpans, type SourceSpan } from '../live/research/coverage.ts';
import { typeChangeNote, typeDataNote } from './trends-type-note.ts';
import { PROPERTY_TYPES } from '../warehouse/property-types.ts';

export const TRENDS_MONTHS = { min: 3, max: 60, default: 24 } as const;

/** The query of the trends route: zip, or city + state; property_type as comps; months 3-60. */
export const TRENDS_QUERY: readonly ParamSpec[] = [
  { name: 'zip', type: 'zip', description: '5-digit US ZIP code (or give city and state); a ZIP+4 (98103-1234) is read as its 5 digits' },
  { name: 'city', type: 'string', min: 1, max: 100, description: 'City name, URL-encoded, with state (instead of zip)' },
  { name: 'state', type: 'state', description: '2-letter uppercase state code, with city' },
  { name: 'property_type', type: 'enum', enum: PROPERTY_TYPES, default: 'sfr', description: 'sfr, multi, condo, land or commercial; default sfr' },
  { name: 'months', type: 'integer', min: TRENDS_MONTHS.min, max: TRENDS_MONTHS.max, default: TRENDS_MONTHS.default,
    description: `Months of the series, ${TRENDS_MONTHS.min}-${TRENDS_MONTHS.max}, default ${TRENDS_MONTHS.default}` },
];

/** zip, or city and state, not both. */
export function checkTrendsMarket(v: Values): FieldError[] {
  const zip = v['zip'] !== undefined;
  const city = v['city'] !== undefined;
  const state = v['state'] !== undefined;
  if (zip && (city || state)) return [{ field: 'zip', code: 'conflict', message: 'give zip, or city and state, not both' }];
  if (!zip && !city && !state) return [{ field: 'zip', code: 'required', message: 'give zip, or city and state' }];
  if (!zip && city !== state) return [{ field: city ? 'state' : 'city', code: 'required', message: 'city and state go together' }];
  return [];
}

/** The shard's series, by column: 60 values per field, the oldest month first. */
export interface StoredSeries {
  month: string[]; sales_count: (number | null)[]; median_price: (number | null)[]; median_price_per_sqft: (number | null)[];
  median_days_on_market: (number | null)[]; investor_purchase_share_pct: (number | null)[]; index_sample_count: number[];
  confidence: string[]; complete: boolean[]; untyped_count: number[]; level: (number | null)[]; se: (number | null)[];
  /** whether the market's source files cover the month (the trends mart's coveredMonths; absent in a build before it) */
  covered?: boolean[];
}
export interface StoredTrends {
  zip_code: string | null; city: string; state: string | null; property_type: string; method: IndexMethod;
  pair_count: number; as_of: string; series: StoredSeries; summary: Record<string, unknown>;
  /** the sources of the market's arm's-length sales (absent in a build before them) */
  sources?: string[];
  /** the files of those sales with their first and last month (pipelines/shards/trends.sql; absent in a build before them) */
  source_files?: SourceFileSpan[] | null;
  /** the property types (of the five) those sources record a sale of, anywhere (absent in a build before them): a type
   *  none records is said so (api/trends-type-note.ts) */
  source_types?: string[] | null;
  /** the additive `source` of the answer: the market's sales source as the manifest names it (pipelines/shards/trends.sql;
   *  absent where no sales source records a sale in the market, and in a build before it) */
  source?: { id: string; name: string; vintage: string | null };
}

/** Why some months have no index: their sales are of another mix than the base month's; null when none is. */
function indexNote(months: readonly string[], mix: readonly Mix[] | undefined, base: number | null, levels: readonly (number | null)[], n: readonly number[]): string | null {
  if (!mix || base === null) return null;
  const off = months.map((_, j) => j).filter((j) => j !== base && levels[j] !== null && !comparable(mix, j, base));
  if (off.length === 0) return null;
  const j = off[0]!;
  return `price_index is null for ${off.length === 1 ? months[j] : `${off.length} months (${months[j]}..${months[off.at(-1)!]})`}: `
    + mixWords({ month: months[j]!, n: n[j]!, mix: mix[j]! }, { month: `the base month ${months[base]}`, n: n[base]!, mix: mix[base]! });
}

/** The samples and partial extracts of a build's sources, and their month-precise spans (its manifest, live/research/data.ts partialSources: the
 *  rule the research answer says them by), read once per build folder. */
interface BuildSources { partial: Map<string, PartialSource>; spans: Map<string, SourceSpan> }
const partialByDir = new Map<string, BuildSources>();
function partialOfBuild(dir: string): BuildSources {
  let hit = partialByDir.get(dir);
  if (!hit) {
    try {
      const manifest: unknown = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
      hit = { partial: partialSources(manifest), spans: sourceSpans(manifest) };
    } catch { hit = { partial: new Map(), spans: new Map() }; }
    if (partialByDir.size > 8) partialByDir.clear();
    partialByDir.set(dir, hit);
  }
  return hit;
}

/** "These sales come from a partial extract of their source (...)": the research answer's words, then what each
 *  extract cannot show of the arm's-length rule (its catalog caveat: Connecticut's 2022 extract has no Non Use Code)
 *  where it applies to the market's sales of the window's months `span` (`files`: the shard's source_files; a caveat
 *  of one file is not said of a town with no sale from it, Hartford: live/research/partial.ts caveatsApplying), or null. */
export function dataNote(sources: readonly string[] | undefined, partial: ReadonlyMap<string, PartialSource>, files?: readonly SourceFileSpan[] | null, span?: readonly [string, string]): string | null {
  const list = (sources ?? []).map((id) => partial.get(id)).filter((p): p is PartialSource => p !== undefined);
  return list.length === 0 ? null
    : `These sales come from ${extractWords(list)}, not every recorded sale, so counts, medians and the index describe that extract only; a month is complete only where the extract covers it whole`
      + caveatWords(caveatsApplying(list, files, span));
}

/** The months of the window with sales that the source files cover in part only (a file starts or ends inside them, or
 *  a thin extract: `covered` false, the trends mart's coveredMonths):
 *  their medians, investor share and index are null in the build (30_mart_market_trends.ts), their count kept; the
 *  research answer's pooled median of such months is named, so the two answers' figures are not read as disagreeing
 *  (review 25: Bridgeport, CT's $340,000 over 2023-06..09 beside these months' null medians). */
export function partMonthNote(months: readonly string[], part: readonly boolean[]): string | null {
  const list = months.filter((_, j) => part[j]);
  return list.length === 0 ? null
    : `${list.join(', ')}: the source files cover ${list.length === 1 ? 'this month' : 'these months'} in part only (a file starts or ends inside it, or holds under a quarter of its source's busiest month: a thin extract), so sales_count counts the sales they hold, and the month has no median, investor share or price index: a part-month's figures are not comparable with whole months'; the research answer (POST /v1/research/query) may pool such months' sales over a window into one median, said to be of months held in part only, which compares only with a median pooled over the same months`;
}

const round2 = (x: number | null): number | null => (x === null ? null : Math.round(x * 100) / 100);

/** The stored summary for a window of `months` ending at `last`: a change ends on the stored change_end_month, the
 *  latest complete month with 20+ sales of all 60; when that month is before the window's first, the changes are not
 *  the window's (review 15: Manhattan's 12 months 2023-03..2024-02 answered change_3m_pct -26.1 ending 2021-09), so
 *  they are null and change_note says which month they end on and the months that reach it. */
export function windowSummary(summary: Record<string, unknown>, first: string, last: string, months: number): Record<string, unknown> {
  const end = summary['change_end_month'];
  if (typeof end !== 'string' || end >= first) return summary;
  const [ly, lm] = last.split('-').map(Number) as [number, number];
  const [ey, em] = end.split('-').map(Number) as [number, number];
  const reach = (ly - ey) * 12 + (lm - em) + 1;
  return {
    ...summary, change_3m_pct: null, change_12m_pct: null, change_24m_pct: null, change_end_month: null,
    change_note: `change_3m_pct, change_12m_pct and change_24m_pct are null: no month of this ${months}-month window`
      + ` (${first}..${last}) is complete with 20 or more sales; the latest such month is ${end}, before it`
      + (reach <= TRENDS_MONTHS.max ? ` (months=${reach} reaches it)` : ''),
  };
}

/** The public answer for `months` from the stored 60 months. */
export function trendsBody(stored: StoredTrends, months: number, partial: ReadonlyMap<string, PartialSource> = new Map(), spans: ReadonlyMap<string, SourceSpan> = new Map()): unknown {
  const c = stored.series;
  // a month the source files do not cover holds no count of the market's sales: its sample_count is null, as its
  // sales_count (review 16: NYC's 2022-04..2023-02 read `sample_count: 0`), and a change from it says why it is null
  const covered = coveredOf(c, stored.sources, spans);
  const note = coverNote(stored.summary, c.month, covered);
  // and every other null change says why too (a start month with too few sales, not complete: trends-change-note.ts)
  // and a type the market's sources record no sale of says so first (trends-type-note.ts), not "no month ... with 20 sales"
  const summary = explainNullChanges(typeChangeNote(stored, note ? { ...stored.summary, change_note: [stored.summary['change_note'], note].filter(Boolean).join('; ') } : stored.summary), c, stored.method);
  const from = Math.max(c.month.length - months, 0);
  const at = Array.from({ length: c.month.length - from }, (_, i) => from + i);
  const allMix = seriesMix(stored.method, c.untyped_count, c.index_sample_count);
  const mix = allMix && at.map((i) => allMix[i]!);
  const { base, points } = rebase(at.map((i) => ({ level: c.level[i]!, se: c.se[i]!, n: c.index_sample_count[i]! })), stored.method,
    at.map((i) => c.complete[i] === true), mix);
  return {
    zip_code: stored.zip_code, city: stored.city, state: stored.state, property_type: stored.property_type,
    months, method: stored.method, pair_count: stored.pair_count,
    base_month: base === null ? null : c.month[at[base]!]!,
    series: at.map((i, j) => ({
      month: c.month[i], sales_count: c.sales_count[i], median_price: c.median_price[i], median_price_per_sqft: c.median_price_per_sqft[i],
      median_days_on_market: c.median_days_on_market[i], investor_purchase_share_pct: c.investor_purchase_share_pct[i],
      price_index: round2(points[j]!.index), price_index_low: round2(points[j]!.low), price_index_high: round2(points[j]!.high),
      // a month of 1-4 sales has no count (minimum cohort, as sales_count): neither its sample nor its untyped sales
      sample_count: c.sales_count[i] === null ? null : c.index_sample_count[i], confidence: c.confidence[i], complete: c.complete[i],
      untyped_count: c.sales_count[i] === null ? null : c.untyped_count[i],
    })),
    summary: at.length === 0 ? summary : windowSummary(summary, c.month[at[0]!]!, c.month[at.at(-1)!]!, months),
    index_note: indexNote(at.map((i) => c.month[i]!), mix, base, at.map((i) => c.level[i]!), at.map((i) => c.index_sample_count[i]!)),
    data_note: [typeDataNote(stored), dataNote(stored.sources, partial, stored.source_files, at.length ? [c.month[at[0]!]!, c.month[at.at(-1)!]!] : undefined)].filter(Boolean).join('; ') || null,
    month_note: partMonthNote(at.map((i) => c.month[i]!), at.map((i) => covered[i] === false && c.sales_count[i] !== null)),
    as_of: stored.as_of,
    ...(stored.source ? { source: stored.source } : {}),
  };
}

/** The answer from the route's shard: synchronous when the shard is in memory (as a plain shard route), else read. */
export function trendsAnswer(build: LoadedBuild, sp: Reply | Promise<Reply>, months: unknown): Reply | Promise<Reply> {
  if (sp instanceof Promise) return sp.then((r) => trendsAnswer(build, r, months)); // a 404 still being worded (marketCityShard)
  if (sp.kind !== 'shard') return sp;
  const hit = build.shards.cached(sp.path);
  const sources = partialOfBuild(build.dir);
  return hit ? trendsReply(hit, Number(months), sp.notFound, build.lastModified, sources)
    : build.shards.get(sp.path).then((f) => trendsReply(f, Number(months), sp.notFound, build.lastModified, sources));
}

/** Answers already computed, by shard ETag and months (the shard's ETag changes with its content): parsing the shard and
 *  rebasing took 40% of a request's time (npm run bench -- --parts trends). Emptied when full. */
const answers = new Map<string, { body: unknown; etag: string }>();
const MAX_ANSWERS = 5_000;

/** The reply from the shard (null: the market has no data), with a weak ETag of the shard's tag and the months. */
function trendsReply(file: Shard | null, months: number, notFound: string, lastModified: string, { partial, spans }: BuildSources): Reply {
  if (!file) throw new HttpError('no_data', notFound);
  const id = `${file.etag}|${months}|${[...partial.keys()].join(',')}|${[...spans.keys()].join(',')}`;
  let hit = answers.get(id);
  if (!hit) {
    if (answers.size >= MAX_ANSWERS) answers.clear();
    hit = {
      body: trendsBody(JSON.parse(file.body.toString('utf8')) as StoredTrends, months, partial, spans),
      etag: `W/"${crypto.createHash('sha256').update(id).digest('base64url').slice(0, 22)}"`,
    };
    answers.set(id, hit);
  }
  return { kind: 'json', body: hit.body, etag: hit.etag, headers: { 'Last-Modified': lastModified } };
}
