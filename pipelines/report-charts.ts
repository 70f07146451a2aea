// The charts of the build report (report.html): Vega-Lite specs rendered to static SVG at build time (npm vega +
// vega-lite, no browser, no network), inlined in the page so it works offline. Data: the manifest, the previous
// published build's manifest, the report sections the steps wrote, and the build's own shards.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Manifest } from './manifest.ts';
import { shardPath } from '../warehouse/layout.ts';

export interface Chart { id: string; title: string; svg: string }
interface Section { title: string; headers: string[]; rows: unknown[][] }
type Row = Record<string, unknown>;
type Spec = Record<string, unknown>;

const WIDTH = 640;
const STAGE_OF = (table: string): string => (table.startsWith('raw.') ? 'sources' : table.startsWith('stg_') ? 'staging' : table.startsWith('int_') ? 'intermediate' : table.startsWith('mart_') ? 'marts' : table.startsWith('meta.') ? 'meta' : 'canonical');

/** The published build before this one in the same artifacts folder (by build id, which sorts by time), or null. */
export function previousManifest(dir: string, m: Manifest): Manifest | null {
  const builds = path.dirname(dir);
  const ids = fs.existsSync(builds) ? fs.readdirSync(builds).filter((n) => !n.includes('.') && n < m.build_id).sort() : [];
  for (const id of ids.reverse()) {
    try {
      const prev = JSON.parse(fs.readFileSync(path.join(builds, id, 'manifest.json'), 'utf8')) as Manifest;
      if (prev.status === 'published') return prev;
    } catch { /* pruned or unreadable: try the one before */ }
  }
  return null;
}

function bar(data: Row[], x: string, y: string, opts: { color?: string; xTitle?: string; yTitle?: string; log?: boolean; horizontal?: boolean; offset?: string; rule?: number; sort?: string | null } = {}): Spec {
  const quantitative = { field: y, type: 'quantitative', title: opts.yTitle ?? y, ...(opts.log ? { scale: { type: 'symlog' } } : {}) }; // symlog: bars start at 0, which log cannot draw
  const nominal = { field: x, type: 'nominal', title: opts.xTitle ?? x, sort: opts.sort === undefined ? '-' + (opts.horizontal ? 'x' : 'y') : opts.sort };
  const encoding: Spec = opts.horizontal ? { y: nominal, x: quantitative } : { x: nominal, y: quantitative };
  if (opts.color) encoding['color'] = { field: opts.color, type: 'nominal', title: opts.color };
  if (opts.offset) encoding[opts.horizontal ? 'yOffset' : 'xOffset'] = { field: opts.offset };
  encoding['tooltip'] = [{ field: x }, { field: y }, ...(opts.color ? [{ field: opts.color }] : [])];
  const layer: Spec[] = [{ mark: 'bar', encoding }];
  if (opts.rule !== undefined) layer.push({ mark: { type: 'rule', color: 'firebrick', strokeDash: [4, 3] }, encoding: { [opts.horizontal ? 'x' : 'y']: { datum: opts.rule } } });
  return { data: { values: data }, width: WIDTH, layer };
}

/** The specs of every chart whose data this build has (a section a build did not write gives no chart). */
export function chartSpecs(dir: string, m: Manifest, sections: Section[]): { id: string; title: string; spec: Spec }[] {
  const out: { id: string; title: string; spec: Spec }[] = [];
  const sources = m.sources as { id: string; present: boolean; files: { rows: number | null }[] }[];
  const sourceRows = sources.filter((s) => s.present).map((s) => ({ source: s.id, rows: s.files.reduce((a, f) => a + (f.rows ?? 0), 0) }));
  if (sourceRows.length) out.push({ id: 'rows-per-source', title: 'Rows read per source', spec: bar(sourceRows, 'source', 'rows', { horizontal: true, log: true, yTitle: 'rows (symmetric log scale)' }) });

  const tables = m.tables.map((t) => ({ table: t.name, stage: STAGE_OF(t.name), rows: t.rows }));
  if (tables.length) out.push({ id: 'rows-per-stage', title: 'Rows per table, by stage', spec: bar(tables, 'table', 'rows', { horizontal: true, log: true, color: 'stage', yTitle: 'rows (symmetric log scale)' }) });

  const rejects = m.rejects.by_source.map((r) => ({ rule: r.rule, source: r.source, rows: r.rows }));
  if (rejects.length) out.push({ id: 'rejects-by-rule', title: `Rejected rows by rule and source (${m.rejects.total} in all)`, spec: bar(rejects, 'rule', 'rows', { horizontal: true, color: 'source' }) });

  const prev = previousManifest(dir, m);
  const timings = [
    ...m.stages.map((s) => ({ stage: s.name, build: `this build (${m.build_id.slice(0, 15)})`, seconds: s.seconds })),
    ...(prev?.stages ?? []).map((s) => ({ stage: s.name, build: `previous (${prev!.build_id.slice(0, 15)})`, seconds: s.seconds })),
  ];
  out.push({ id: 'stage-timings', title: prev ? 'Stage timings against the previous build' : 'Stage timings (no previous published build to compare)', spec: bar(timings, 'stage', 'seconds', { color: 'build', offset: 'build', sort: null }) });

  const backtest = sections.find((s) => s.title === 'Valuation back-test');
  if (backtest) {
    const col = (name: string): number => backtest.headers.indexOf(name);
    const rows = backtest.rows.map((r) => ({ source: r[col('source')], subject: r[col('subject')], confidence: r[col('confidence')], mdape: r[col('MdAPE %')], coverage: r[col('80% coverage %')] }));
    out.push({ id: 'avm-backtest', title: 'AVM back-test: median absolute error (MdAPE %) by source and subject', spec: bar(rows.filter((r) => r.confidence === 'all'), 'source', 'mdape', { color: 'subject', offset: 'subject', yTitle: 'MdAPE %', sort: null }) });
    out.push({ id: 'avm-calibration', title: 'AVM calibration: share of sales inside the 80% interval, by confidence (target 80%)', spec: bar(rows.filter((r) => r.subject === 'record'), 'source', 'coverage', { color: 'confidence', offset: 'confidence', yTitle: 'inside the 80% interval, %', rule: 80, sort: null }) });
  }

  const trends = largestMarketTrends(dir, sections);
  if (trends.length) out.push({ id: 'trends-largest-markets', title: 'Trends of the largest market of each source: median sale price per month, last 24 months of its series (log scale; months under 5 sales have none)', spec: { data: { values: trends }, width: WIDTH, mark: { type: 'line', point: true }, encoding: { x: { field: 'month', type: 'temporal', title: 'month' }, y: { field: 'median_price', type: 'quantitative', scale: { type: 'log' }, title: 'median sale price, USD' }, color: { field: 'market', type: 'nominal', title: 'market' }, tooltip: [{ field: 'market' }, { field: 'month' }, { field: 'median_price' }, { field: 'sales_count' }] } } });

  const lookup = path.join(dir, 'shards', 'geo', 'lookup');
  const states = readJson<{ states: { state_code: string; state_name: string }[] }>(path.join(dir, 'shards', 'geo', 'states.json'));
  if (states && fs.existsSync(lookup)) {
    const byState = states.states.map((s) => ({ state: s.state_name, code: s.state_code, cities: countJson(path.join(lookup, s.state_code)) }));
    out.push({ id: 'coverage-map', title: 'Coverage by state: cities with a geo lookup', spec: stateMap(byState) });
  }

  const comps = largestMarkets(dir);
  if (comps.length) out.push({ id: 'comps-largest-markets', title: 'Comps of the largest markets: median price per sqft of single-family sales in 12 months (the 12 zips with the most sales)', spec: { data: { values: comps }, width: WIDTH, mark: { type: 'bar' }, encoding: { y: { field: 'market', type: 'nominal', sort: '-x', title: 'zip' }, x: { field: 'median_ppsf', type: 'quantitative', title: 'median price per sqft, USD' }, color: { field: 'sales', type: 'quantitative', title: 'sales' }, tooltip: [{ field: 'market' }, { field: 'median_ppsf' }, { field: 'sales' }] } } });
  return out;
}

function readJson<T>(file: string): T | null {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')) as T; } catch { return null; }
}
const countJson = (d: string): number => (fs.existsSync(d) ? fs.readdirSync(d).filter((n) => n.endsWith('.json')).length : 0);

/** The 12 zips with the most single-family sales in 12 months (their comps shard), with the median price per sqft. */
function largestMarkets(dir: string): Row[] {
  const root = path.join(dir, 'shards', 'market', 'comps');
  if (!fs.existsSync(root)) return [];
  const found: { market: string; sales: number; median_ppsf: number }[] = [];
  for (const zip of fs.readdirSync(root)) {
    const c = readJson<{ city?: string; state?: string; sample_count?: number; price_per_sqft?: { median?: number | null } }>(path.join(root, zip, 'sfr-12.json'));
    const median = c?.price_per_sqft?.median;
    if (!c || typeof c.sample_count !== 'number' || typeof median !== 'number') continue;
    found.push({ market: `${zip} ${c.city ?? ''}, ${c.state ?? ''}`, sales: c.sample_count, median_ppsf: median });
  }
  return found.sort((a, b) => b.sales - a.sales || a.market.localeCompare(b.market)).slice(0, 12);
}

/** The monthly medians of each source's largest market (the rows of the trends step's report section), read from
 *  their city trends shards (`series` stored by column, oldest month first): the last 24 months, months with a median only. */
function largestMarketTrends(dir: string, sections: Section[]): Row[] {
  const section = sections.find((s) => s.title.startsWith('Market trends: the largest market of each source'));
  if (!section) return [];
  const col = (name: string): number => section.headers.indexOf(name);
  const out: Row[] = [];
  for (const r of section.rows) {
    const market = String(r[col('market')]);
    const at = market.lastIndexOf(', ');
    const sp = shardPath('trends', { state: market.slice(at + 2), city: market.slice(0, at), property_type: String(r[col('type')]) });
    const s = (sp.ok ? readJson<{ series?: { month: string[]; median_price: (number | null)[]; sales_count: (number | null)[] } }>(path.join(dir, 'shards', sp.path)) : null)?.series;
    if (!s?.month) continue;
    const label = `${market} (${String(r[col('source')])}, ${String(r[col('type')])})`;
    for (let i = Math.max(0, s.month.length - 24); i < s.month.length; i++) {
      if (s.median_price[i] != null) out.push({ market: label, month: s.month[i], median_price: s.median_price[i], sales_count: s.sales_count[i] });
    }
  }
  return out;
}

/** A choropleth of the states (us-atlas TopoJSON from npm, Albers USA projection) joined by state name. */
function stateMap(values: Row[]): Spec {
  const topo = readJson<unknown>(path.join(path.dirname(createRequire(import.meta.url).resolve('us-atlas/package.json')), 'states-10m.json'));
  return {
    width: WIDTH, height: 400,
    data: { values: topo, format: { type: 'topojson', feature: 'states' } },
    projection: { type: 'albersUsa' },
    transform: [{ lookup: 'properties.name', from: { data: { values }, key: 'state', fields: ['cities', 'code'] } }],
    mark: { type: 'geoshape', stroke: 'white', strokeWidth: 0.5 },
    encoding: { color: { field: 'cities', type: 'quantitative', title: 'cities', scale: { scheme: 'blues' } }, tooltip: [{ field: 'properties.name', title: 'state' }, { field: 'cities' }] },
  };
}

/** Every chart as SVG. Vega and Vega-Lite are loaded only here (they are large), once per process. */
export async function renderCharts(dir: string, m: Manifest, sections: Section[]): Promise<Chart[]> {
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  const charts: Chart[] = [];
  for (const c of chartSpecs(dir, m, sections)) {
    const spec = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', config: { font: 'sans-serif', view: { stroke: null } }, ...c.spec };
    const compiled = vl.compile(spec as never).spec;
    const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
    charts.push({ id: c.id, title: c.title, svg: await view.toSVG() });
    view.finalize();
  }
  return charts;
}
