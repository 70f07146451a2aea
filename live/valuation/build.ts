// Live data of POST /v1/valuation/estimate (live/valuation/endpoint.ts), written under <build>/live/valuation/:
//   comps-<source>.arrow  the source's arm's-length residential sales with sqft (CompSetData as an Arrow file:
//                         comp-arrow.ts), last 5 years
//   subjects-<source>.arrow  parcels (assessor roll) not among the comps, for address resolution only
//   params-<source>.json  the source's monthly log price index and hedonic slopes fitted on every comp, its trees
//   calibration.json      the split-conformal table (source, mode, tier, n, q) from the back-test
//   backtest.json         the back-test summary (test slice) per source, subject mode (record, request, typical) and tier
//   scorecard.json        GET /v1/valuation/scorecard: that summary plus PRD / PRB by price tier (live/valuation/scorecard.ts)
//   meta.json             format, build id, per source as_of and files, per zip: source, city and state (the zip's, as
//                         int_market_zip_names names it), typical property
// The back-test (live/valuation/backtest.ts) uses the same estimator as the server and is appended to
// <build>/report-sections.json as "Valuation back-test". Rules: warehouse/docs/valuation.md.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { columnExists, queryRows, tableExists } from '../../warehouse/db.ts';
import { appendReportSection } from '../../warehouse/build-folder.ts';
import { CONDITION_CODES, RESIDENTIAL_TYPES, type ApartmentRow, type Condition, type ModelParams, type ValuationMeta, type ZipMeta } from './types.ts';
import { isoOfDay } from './helpers.ts';
import type { CompSetData } from './comps.ts';
import { VALUATION_FORMAT, writeCompFile } from './comp-arrow.ts';
import { defaultWorkers, fitSources } from './fit-tasks.ts';
import type { CalibrationRow } from './interval.ts';
import { PROPERTY_TYPES } from '../../warehouse/property-types.ts';
import { calibrate, modelName, summarize, tuned, type Prediction } from './backtest.ts';
import { ACCURACY_HEADERS, FAIRNESS_HEADERS, accuracyRows, fairnessRows, scorecard, type Scorecard } from './scorecard.ts';
import { unvaluedLine, unvaluedSources } from './unvalued.ts';

export const requires = ['sales'];

export const LIVE_FORMAT = VALUATION_FORMAT;
/** Comps older than this many years before their source's latest sale are left out. */
export const LOOKBACK_YEARS = 5;
/** Rows whose price per sqft lies outside this range are broken records (bulk deeds, sqft typos), not comps. */
export const PPSF_RANGE = [10, 10_000] as const;
export const REPORT_TITLE = 'Valuation back-test';
export const SCORECARD_TITLE = 'Valuation scorecard: fairness by price tier (PRD, PRB)';
export const UNVALUED_TITLE = 'Valuation: sales sources not valued';
const UNVALUED_HEADERS = ['source', 'arm\'s-length residential sales', 'with zip and sqft', 'why'];

interface SaleRow {
  source: string; zip: string; day: number; price: number; sqft: number; beds: number | null; baths: number | null; year: number | null;
  condition: string | null; property_type: string; lat: number | null; lng: number | null; key: string | null; city: string | null; state: string | null;
  /** The assessor feature columns of mart_valuation_features (grade, view, ..., log_assessed): f_<name>. */
  [feature: `f_${string}`]: number | null;
  /** property_id() of the record (the macro the property record and autocomplete use). */
  pid: string | null;
  /** The tax block (sales.block_key: NYC borough-block), the location of a source without points. */
  block?: string | null;
  /** The day the row's assessor features were set (mart_valuation_features.features_date), null when undated. */
  features_day: number | null;
}

/** The assessor feature columns of mart_valuation_features (every column but sale_id; TUNING.features): a feature
 *  added to the mart reaches the comps files, the weights, the slopes and the trees without a change here. */
async function featureColumns(db: StageContext['db']): Promise<string[]> {
  if (!(await tableExists(db, 'mart_valuation_features'))) return [];
  const cols = await queryRows<{ name: string }>(db, `select column_name as name from information_schema.columns
    where table_name = 'mart_valuation_features' and column_name not in ('sale_id', 'features_date') order by ordinal_position`);
  return cols.map((c) => c.name);
}

/** The valuation's scope (warehouse/docs/valuation.md "Scope"): a `<table>` row of an apartment building of five or
 *  more units (mart_valuation_apartments) is never a comp nor a subject, nor a sale whose own row records one
 *  (mart_valuation_apartment_sales); '' without the table or the id macro. */
async function scopeSql(db: StageContext['db'], table: 'sales' | 'parcels'): Promise<string> {
  if ((await pidSql(db)).startsWith('null') || !(await tableExists(db, 'mart_valuation_apartments'))) return '';
  const ownRow = table === 'sales' && await tableExists(db, 'mart_valuation_apartment_sales')
    ? ' and not exists (select 1 from mart_valuation_apartment_sales x where x.sale_id = sales.sale_id)' : '';
  return ` and not exists (select 1 from mart_valuation_apartments a
    where a.property_id = property_id(${table}.source, ${table}.parcel_id, ${table}.address, ${table}.unit, ${table}.zip))${ownRow}`;
}

const KEY_SQL = `coalesce(case when address is not null then address || coalesce(' #' || unit, '') end, parcel_id)`;
/** The public property id of a sales or parcels row: the property_id macro of
 *  pipelines/intermediate/30_market_00_canonical_tables.sql; null in a warehouse without it (a step test's tables). */
async function pidSql(db: StageContext['db']): Promise<string> {
  const [m] = await queryRows<{ n: number }>(db, `select count(*)::integer as n from duckdb_functions() where function_name = 'property_id'`);
  return m && m.n > 0 ? 'property_id(source, parcel_id, address, unit, zip)' : 'null::varchar';
}

/** A row's condition as its code (CONDITION_CODES), null unknown. */
const conditionCode = (r: SaleRow): number | null => { const k = CONDITION_CODES.indexOf(r.condition as Condition); return k >= 0 ? k : null; };
/** The feature columns some row of `list` knows, one array each (rows as read with `f_<feature>` columns). */
const featureArrays = (features: string[], list: SaleRow[]): Record<string, (number | null)[]> =>
  Object.fromEntries(features.filter((f) => list.some((r) => r[`f_${f}`] !== null && r[`f_${f}`] !== undefined)).map((f) => [f, list.map((r) => r[`f_${f}`] ?? null)]));

/** The comp sets of every source from the canonical sales table. */
export async function loadCompSets(db: StageContext['db']): Promise<{ sets: CompSetData[]; zipMeta: Record<string, ZipMeta> }> {
  const FEATURES = await featureColumns(db);
  const withFeatures = FEATURES.length > 0;
  const FDAY_SQL = withFeatures && (await columnExists(db, 'mart_valuation_features', 'features_date')) ? `(f.features_date - date '1970-01-01')::integer` : 'null::integer';
  const PID_SQL = await pidSql(db);
  const BLOCK_SQL = (await columnExists(db, 'sales', 'block_key')) ? 'block_key' : 'null::varchar';
  const rows = await queryRows<SaleRow>(db, `
    with s as (
      select *, max(sale_date) over (partition by source) as source_last from sales
      where is_arms_length and sale_price > 0 and sqft > 0 and zip is not null and property_type in ('sfr', 'multi', 'condo')
        and sale_price / sqft between $lo and $hi${await scopeSql(db, 'sales')}
    )
    select source, zip, (sale_date - date '1970-01-01')::integer as day, sale_price::double as price, sqft::double as sqft,
           beds::double as beds, baths::double as baths, year_built::integer as year, condition, property_type,
           lat::double as lat, lng::double as lng, ${KEY_SQL} as key, ${PID_SQL} as pid, ${BLOCK_SQL} as block, city, state_code as state
           ${FEATURES.map((f) => `, f."${f}"::double as "f_${f}"`).join('')}, ${FDAY_SQL} as features_day
    from s ${withFeatures ? 'left join mart_valuation_features f using (sale_id)' : ''}
    where sale_date > source_last - to_years(${LOOKBACK_YEARS})
    order by source, zip, sale_date, sale_id`, { lo: PPSF_RANGE[0], hi: PPSF_RANGE[1] });
  const bySource = new Map<string, SaleRow[]>();
  for (const r of rows) (bySource.get(r.source) ?? bySource.set(r.source, []).get(r.source)!).push(r);
  const sets: CompSetData[] = [];
  const zipAcc = new Map<string, { source: string; n: number; last: number; city: Map<string, number> }>();
  for (const [source, list] of bySource) {
    const zips = [...new Set(list.map((r) => r.zip))].sort();
    const zipIdx = new Map(zips.map((z, i) => [z, i]));
    sets.push({
      source, zips,
      zip: list.map((r) => zipIdx.get(r.zip)!),
      day: list.map((r) => r.day),
      price: list.map((r) => r.price),
      sqft: list.map((r) => r.sqft),
      beds: list.map((r) => (r.beds !== null && r.beds > 0 ? r.beds : null)),
      baths: list.map((r) => (r.baths !== null && r.baths > 0 ? r.baths : null)),
      year: list.map((r) => (r.year !== null && r.year > 1700 ? r.year : null)),
      cond: list.map(conditionCode),
      type: list.map((r) => PROPERTY_TYPES.indexOf(r.property_type as (typeof PROPERTY_TYPES)[number])),
      lat: list.map((r) => r.lat), lng: list.map((r) => r.lng),
      key: list.map((r) => r.key),
      pid: list.map((r) => r.pid),
      features: featureArrays(FEATURES, list),
      ...(list.some((r) => r.block) ? { block: list.map((r) => r.block ?? null) } : {}),
      ...(list.some((r) => r.features_day !== null) ? { features_day: list.map((r) => r.features_day) } : {}),
    });
    for (const r of list) {
      let z = zipAcc.get(r.zip);
      if (!z) zipAcc.set(r.zip, (z = { source, n: 0, last: 0, city: new Map() }));
      if (z.source !== source) continue; // a zip belongs to the source with its first rows (sources do not overlap today)
      z.n++;
      z.last = Math.max(z.last, r.day);
      if (r.city && r.state) { const k = `${r.city}|${r.state}`; z.city.set(k, (z.city.get(k) ?? 0) + 1); }
    }
  }
  // a zip's city is the warehouse's one rule (int_market_zip_names: the geo zips' USPS primary city, else the zip's most
  // frequent record city), as the comps, rehab, investor and location answers name it: 10469 is Bronx there, and was
  // New York here (the NYC file names every borough's sales New York); the sales' own most frequent city otherwise
  const named = new Map((await tableExists(db, 'int_market_zip_names')
    ? await queryRows<{ zip: string; city: string | null; state: string | null }>(db, 'select zip, city, state_code as state from int_market_zip_names') : [])
    .filter((r) => r.city && r.state).map((r) => [r.zip, `${r.city}|${r.state}`]));
  const zipMeta: Record<string, ZipMeta> = {};
  for (const [zip, z] of [...zipAcc.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const top = named.get(zip) ?? [...z.city.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
    if (!top) continue; // no city/state known: the response could not be filled
    const [city, state] = top.split('|') as [string, string];
    zipMeta[zip] = { source: z.source, city, state, sales: z.n, last_sale: isoOfDay(z.last) };
  }
  return { sets, zipMeta };
}

/** Parcels (the assessor roll) that are not among a source's comps: address resolution only. */
async function loadSubjects(db: StageContext['db'], set: CompSetData): Promise<CompSetData> {
  const PID_SQL = await pidSql(db);
  // a roll's own fields and condition, where its source keeps them (mart_valuation_parcel_features): the trees read
  // them as they read a sale's (review 28: Philadelphia's parcels had none, and the trees valued them 0.41 of the comps)
  const FEATURES = (await tableExists(db, 'mart_valuation_parcel_features')) ? await featureColumns(db) : [];
  const withFeatures = FEATURES.length > 0;
  const rows = !(await tableExists(db, 'parcels')) ? [] : await queryRows<SaleRow>(db, `
    select parcels.source, zip, 0 as day, 1.0 as price, sqft::double as sqft, beds::double as beds, baths::double as baths, year_built::integer as year,
           ${withFeatures ? 'f.condition' : 'null'} as condition, property_type, lat::double as lat, lng::double as lng, ${KEY_SQL} as key, ${PID_SQL} as pid,
           city, state_code as state${FEATURES.map((f) => `, f."${f}"::double as "f_${f}"`).join('')}
    from parcels ${withFeatures ? `left join (select * exclude (source) from mart_valuation_parcel_features where source = $source) f
      on f.file = parcels.file and f.line = parcels.line` : ''}
    where parcels.source = $source and zip is not null and sqft > 0 and property_type in ('sfr', 'multi', 'condo') and ${KEY_SQL} is not null${await scopeSql(db, 'parcels')}
    order by zip, key, parcel_id -- parcels sharing an address come out in one order in every build
    `, { source: set.source });
  // a parcel among the comps is left out by its property_id (another property's sale at its address, NYC's lot 54
  // sold as 1372 E 92nd St before lot 55 was built there, leaves it in: live/valuation/match.ts); without one, its address
  const known = new Set(set.key.map((k, i) => set.pid?.[i] ? `p:${set.pid[i]}` : `k:${set.zips[set.zip[i]!]}|${k}`));
  const list = rows.filter((r) => !known.has(r.pid ? `p:${r.pid}` : `k:${r.zip}|${r.key}`));
  const zips = [...new Set(list.map((r) => r.zip))].sort();
  const zipIdx = new Map(zips.map((z, i) => [z, i]));
  return {
    source: set.source, zips, zip: list.map((r) => zipIdx.get(r.zip)!), day: list.map(() => 0), price: list.map(() => 1), sqft: list.map((r) => r.sqft),
    beds: list.map((r) => (r.beds !== null && r.beds > 0 ? r.beds : null)), baths: list.map((r) => (r.baths !== null && r.baths > 0 ? r.baths : null)),
    year: list.map((r) => (r.year !== null && r.year > 1700 ? r.year : null)), cond: list.map(conditionCode),
    type: list.map((r) => PROPERTY_TYPES.indexOf(r.property_type as (typeof PROPERTY_TYPES)[number])),
    lat: list.map((r) => r.lat), lng: list.map((r) => r.lng), key: list.map((r) => r.key), pid: list.map((r) => r.pid),
    features: featureArrays(FEATURES, list),
  };
}


/** `workers`: worker threads for the fits (fit-tasks.ts; 0 runs them in this thread, the default on one core). */
export async function run(ctx: StageContext, workers = defaultWorkers()): Promise<void> {
  const started = performance.now();
  const dir = path.join(ctx.paths.build, 'live', 'valuation');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const { sets, zipMeta } = await loadCompSets(ctx.db);
  const meta: ValuationMeta = { format: LIVE_FORMAT, build_id: ctx.buildId, sources: {}, zips: zipMeta };
  const params: Record<string, ModelParams> = {};
  const preds: Prediction[] = [];
  const scoreSources: Scorecard['sources'] = [];
  const write = (name: string, v: unknown): void => fs.writeFileSync(path.join(dir, name), JSON.stringify(v));
  // unit sales and how many record a living area, per source: where few do, units cannot be valued (endpoint.ts)
  const units = new Map((await queryRows<{ source: string; n: number; sqft: number }>(ctx.db, `select source, count(*)::integer as n,
    count(*) filter (where sqft > 0)::integer as sqft from sales where is_arms_length and sale_price > 0 and unit is not null
    and property_type in ('sfr', 'multi', 'condo', 'coop') group by source`)).map((r) => [r.source, r]));
  // the fits and back-tests of every source, on worker threads where there are cores (fit-tasks.ts)
  const fits = await fitSources(sets, workers);
  for (const [k, set] of sets.entries()) {
    const { params: fitted, backtest: bt } = fits[k]!;
    params[set.source] = { ...tuned(fitted, bt.recency, bt.distance, bt.kernel), blend: bt.blend, model: modelName(bt.blend) };
    preds.push(...bt.predictions);
    scoreSources.push({ source: set.source, model: params[set.source]!.model ?? 'comps', test_start: isoOfDay(bt.testStart), test_sales: bt.predictions.filter((p) => p.slice === 'test' && p.mode === 'record').length,
      test_slice_sales: set.day.filter((d, i) => d >= bt.testStart && RESIDENTIAL_TYPES.has(set.type[i]!)).length });
    const subjects = await loadSubjects(ctx.db, set);
    const comps_file = `comps-${set.source}.arrow`, subjects_file = `subjects-${set.source}.arrow`, params_file = `params-${set.source}.json`;
    writeCompFile(path.join(dir, comps_file), set);
    writeCompFile(path.join(dir, subjects_file), subjects);
    meta.sources[set.source] = { comps_file, subjects_file, params_file, comps: set.day.length, subjects: subjects.day.length, as_of: isoOfDay(Math.max(...set.day)),
      unit_sales: units.get(set.source)?.n ?? 0, unit_sales_sqft: units.get(set.source)?.sqft ?? 0 };
  }
  // every US zip (its state) and the zips with sales but no comp: the 404 messages of endpoint.ts (coverage.ts)
  const known = (await tableExists(ctx.db, 'zips')) ? await queryRows<{ zip: string; state: string }>(ctx.db, `select zip, state_code as state from zips where zip is not null and state_code is not null order by zip`) : [];
  const salesZips = await queryRows<{ zip: string; source: string }>(ctx.db, `select zip, min(source) as source from sales where is_arms_length and zip is not null group by zip order by zip`);
  write('zips.json', { known: Object.fromEntries(known.map((r) => [r.zip, r.state])), sales: Object.fromEntries(salesZips.filter((r) => !zipMeta[r.zip]).map((r) => [r.zip, r.source])) });
  // the apartment buildings left out (scopeSql): the endpoint's 404 says what the property is and why it is not valued
  write('apartments.json', !(await tableExists(ctx.db, 'mart_valuation_apartments')) ? {} : Object.fromEntries((await queryRows<ApartmentRow & { property_id: string }>(ctx.db,
    'select property_id, source, units, evidence from mart_valuation_apartments order by property_id')).map(({ property_id, ...r }) => [property_id, r])));
  const calibration: CalibrationRow[] = calibrate(preds);
  const summary = summarize(preds, calibration);
  for (const [source, p] of Object.entries(params)) write(meta.sources[source]!.params_file, p);
  write('calibration.json', calibration);
  write('backtest.json', summary);
  // a source with sales but no comp (a canonical sales.csv without sqft): named with why, never an empty table unsaid
  const unvalued = await unvaluedSources(ctx.db, sets.map((s) => s.source));
  for (const u of unvalued) ctx.log.warn(unvaluedLine(u));
  const card = scorecard(ctx.buildId, summary, preds, scoreSources, unvalued);
  write('scorecard.json', card);
  write('meta.json', meta); // last: its presence marks a complete set
  appendReportSection(ctx.paths.build, { title: REPORT_TITLE, headers: ACCURACY_HEADERS, rows: accuracyRows(card) });
  appendReportSection(ctx.paths.build, { title: SCORECARD_TITLE, headers: FAIRNESS_HEADERS, rows: fairnessRows(card) });
  if (unvalued.length) appendReportSection(ctx.paths.build, { title: UNVALUED_TITLE, headers: UNVALUED_HEADERS, rows: unvalued.map((u) => [u.source, u.sales, u.with_sqft, u.reason]) });
  const kc = summary.find((r) => r.source === 'king_county' && r.mode === 'record' && r.tier === 'all');
  const kcCoverage = Object.fromEntries(summary.filter((r) => r.source === 'king_county' && r.tier === 'all').map((r) => [`kc_coverage_${r.mode}`, r.coverage]));
  ctx.log.info('live/valuation', {
    sources: sets.length, comps: sets.reduce((a, s) => a + s.day.length, 0), zips: Object.keys(zipMeta).length, predictions: preds.length,
    ...(kc ? { kc_mdape: kc.mdape, kc_ppe10: kc.ppe10, ...kcCoverage } : {}),
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  });
}
