// `npm run eval:avm [-- --artifacts DIR] [--sources DIR] [--min-test N] [--json FILE]`: the time-split evaluation of the valuation
// estimator over the comps of the current build (<build>/live/valuation/comps-*.json) or, with --sources, over the sales
// of any sources folder (a folder like ../shared/data, or a folder holding a canonical-format sales.csv: it is loaded
// as the operator's `canonical/` records beside the default sources' geography folders, through the real build's
// sources -> marts stages into a temporary artifacts folder). Same model module the server uses
// (live/valuation/estimate.ts) and the same back-test as the build (live/valuation/backtest.ts): per source,
// calibration folds at 48-64% and 64-80% of the sales by date, test on the last 20%, each predicted only from
// earlier sales. Prints MdAPE, PPE10, PPE20, 80% interval coverage and median width per source, subject mode and
// confidence tier, next to three naive baselines on the same test sales. Subject modes (how the endpoint describes
// the subject): record = address found (its recorded characteristics), request = address not found with sqft sent
// (the zip's typical property with the sale's sqft), typical = address not found and no sqft sent (the zip's typical
// property, typical sqft included; confidence always low). Baselines:
//   zip median ppsf        the median price per sqft of the zip's earlier sales x the subject's sqft
//   10 nearest comps       the median ppsf of the 10 nearest earlier sales (by distance; without coordinates the
//                          zip's 10 most recent) x sqft, no adjustments
//   naive comp spread      the 10 nearest comps' 10th-90th percentile ppsf x sqft as the "80%" interval
// First table: the scorecard (GET /v1/valuation/scorecard, the build report): per source, subject mode and tier; then
// PRD / PRB by price tier (live/valuation/scorecard.ts). Writes bench-results/eval-avm-<time>.json (or --json FILE).
// An unseen market: `npx tsx scripts/canonical-sales.ts --from sacramento|king_county|nyc --out DIR`, then --sources DIR.
// --breakdown: where the error is, per source (test slice, recorded subjects): n, MdAPE and median bias (log estimate /
// actual) by sale-price quartile, property type, months after the split, comps kept, median comp distance and age.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { latLngToCell } from 'h3-js';
import { formatTable } from '../bin/cli-format.ts';
import { currentBuildDir } from '../warehouse/build-folder.ts';
import { RESIDENTIAL_TYPES, type ValuationMeta } from '../live/valuation/types.ts';
import { haversineKm, median } from '../live/valuation/helpers.ts';
import { CompIndex, H3_RES, type CompSetData } from '../live/valuation/comps.ts';
import { readCompSet } from '../live/valuation/comp-arrow.ts';
import { backtest, calibrate, metrics, modelName, splitDays, summarize, type Metrics, type Prediction, type SummaryRow } from '../live/valuation/backtest.ts';
import { ACCURACY_HEADERS, FAIRNESS_HEADERS, accuracyRows, fairnessRows, scorecard, type Scorecard } from '../live/valuation/scorecard.ts';
import { compSetsFromSources } from './eval-avm-sources.ts';
import { unvaluedLine, type Unvalued } from '../live/valuation/unvalued.ts';
import { PROPERTY_TYPES } from '../warehouse/property-types.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    artifacts: { type: 'string', default: path.join(REPO, 'artifacts') },
    sources: { type: 'string' },
    'min-test': { type: 'string', default: '500' },
    json: { type: 'string' },
    breakdown: { type: 'boolean', default: false },
  },
});
const minTest = Number(values['min-test']);

/** The comp sets to evaluate and what they came from. */
async function compSets(): Promise<{ label: string; sets: CompSetData[]; unvalued: Unvalued[] }> {
  if (values.sources) return { label: `sources ${values.sources}`, ...await compSetsFromSources(path.resolve(values.sources)) };
  const buildDir = currentBuildDir(path.resolve(values.artifacts!));
  if (!buildDir) throw new Error(`no published build in ${values.artifacts}`);
  const dir = path.join(buildDir, 'live', 'valuation');
  if (!fs.existsSync(path.join(dir, 'meta.json'))) throw new Error(`build ${buildDir} has no valuation data (live/valuation/meta.json)`);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as ValuationMeta;
  return {
    label: `build ${path.basename(buildDir)}`,
    sets: Object.entries(meta.sources).sort().map(([, files]) => readCompSet(path.join(dir, files.comps_file))),
    // the build's own list of sources it could not value (scorecard.json; absent from builds before review 25)
    unvalued: fs.existsSync(path.join(dir, 'scorecard.json')) ? (JSON.parse(fs.readFileSync(path.join(dir, 'scorecard.json'), 'utf8')) as Scorecard).unvalued ?? [] : [],
  };
}

interface BaselineRow { source: string; baseline: string; n: number; mdape: number; ppe10: number; ppe20: number; coverage: number | null; width: number | null }

/** The three naive baselines over the test slice of one source. */
function baselines(idx: CompIndex): BaselineRow[] {
  const { testStart } = splitDays(idx);
  const zipMedian: Prediction[] = [], nearest: Prediction[] = [];
  const spread: { hit: boolean; width: number }[] = [];
  const zipPpsf = new Map<string, number>();
  const ppsf = (i: number): number => idx.data.price[i]! / idx.data.sqft[i]!;
  for (let i = 0; i < idx.n; i++) {
    if (idx.day[i]! < testStart || !RESIDENTIAL_TYPES.has(idx.data.type[i]!)) continue;
    const s = idx.subjectOf(i);
    const rows = (idx.byZip.get(s.zip) ?? []).filter((r) => idx.day[r]! < testStart && RESIDENTIAL_TYPES.has(idx.data.type[r]!));
    if (rows.length === 0) continue;
    const actual = idx.data.price[i]!;
    const pred = (e: number): Prediction => ({ source: idx.data.source, row: i, slice: 'test', mode: 'record', actual, estimate: e, tier: 'low', compCount: 0, score: Math.abs(Math.log(actual / e)) });
    if (!zipPpsf.has(s.zip)) zipPpsf.set(s.zip, median(rows.map(ppsf)));
    zipMedian.push(pred(zipPpsf.get(s.zip)! * s.sqft));
    // 10 nearest earlier sales: by distance within the zip and its neighbours when located, else the zip's most recent
    let near: number[];
    if (s.lat !== null && s.lng !== null) {
      const pool: number[] = [];
      for (const c of idx.disk(latLngCell(s.lat, s.lng), 3)) for (const r of idx.byCell.get(c) ?? []) if (idx.day[r]! < testStart && RESIDENTIAL_TYPES.has(idx.data.type[r]!)) pool.push(r);
      const cand = pool.length >= 10 ? pool : rows;
      near = cand.map((r) => [r, haversineKm(s.lat!, s.lng!, idx.lat[r]!, idx.lng[r]!)] as const).sort((a, b) => a[1] - b[1]).slice(0, 10).map((x) => x[0]);
    } else {
      near = rows.slice(-10);
    }
    const pp = near.map(ppsf).sort((a, b) => a - b);
    const est = median(pp) * s.sqft;
    nearest.push(pred(est));
    const lo = quantile(pp, 0.1) * s.sqft, hi = quantile(pp, 0.9) * s.sqft;
    spread.push({ hit: actual >= lo && actual <= hi, width: (hi - lo) / est });
  }
  const row = (baseline: string, m: Metrics, extra: Partial<BaselineRow> = {}): BaselineRow => ({ source: idx.data.source, baseline, n: m.n, mdape: m.mdape, ppe10: m.ppe10, ppe20: m.ppe20, coverage: null, width: null, ...extra });
  return [
    row('zip median ppsf', metrics(zipMedian)),
    row('10 nearest comps (median ppsf)', metrics(nearest)),
    row('naive comp spread interval (p10-p90 of the 10 nearest)', metrics(nearest), {
      coverage: Number(((spread.filter((s) => s.hit).length / Math.max(1, spread.length)) * 100).toFixed(1)),
      width: Number((median(spread.map((s) => s.width)) * 100).toFixed(1)),
    }),
  ];
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

const latLngCell = (lat: number, lng: number): string => latLngToCell(lat, lng, H3_RES);

const started = performance.now();
const { label, sets, unvalued } = await compSets();
const preds: Prediction[] = [];
const base: BaselineRow[] = [];
const skipped: { source: string; reason: string }[] = [];
const splits: Record<string, { cal_starts: string[]; test_start: string; subjects: number }> = {};
const cardSources: Scorecard['sources'] = [];
const kernels: string[] = []; // each source's kernel search (backtest.ts chooseKernel): its steps and whether both folds kept it
for (const data of sets) {
  const source = data.source;
  const idx = new CompIndex(data);
  const r = backtest(idx);
  const nTest = r.predictions.filter((p) => p.slice === 'test' && p.mode === 'record').length;
  splits[source] = { cal_starts: r.split.calStarts.map(iso), test_start: iso(r.split.testStart), subjects: r.split.subjects };
  cardSources.push({ source, model: modelName(r.blend), test_start: iso(r.split.testStart), test_sales: nTest });
  const ks = r.kernelSearch, f4 = (xs: number[]): string => xs.map((x) => (x * 100).toFixed(2)).join(' / ');
  if (ks) kernels.push(`${source} ${ks.kept ? `kept ${JSON.stringify(r.kernel)}` : 'defaults kept'} (search on the first fold: ${ks.trace.join(', ')}${ks.folds ? `; folds' blend error % defaults ${f4(ks.folds.defaults)}, learned ${f4(ks.folds.learned)}` : ''})`);
  preds.push(...r.predictions); // every source calibrates the pooled rows, as in the build
  if (nTest < minTest) { skipped.push({ source, reason: `${nTest} test sales (< ${minTest})` }); continue; }
  base.push(...baselines(idx));
}
function iso(day: number): string { return new Date(day * 86_400_000).toISOString().slice(0, 10); }

const table = calibrate(preds);
const shown = new Set(Object.keys(splits).filter((s) => !skipped.some((k) => k.source === s)));
const summary: SummaryRow[] = summarize(preds, table).filter((r) => shown.has(r.source));
const card = scorecard(label, summary, preds.filter((p) => shown.has(p.source)), cardSources, unvalued);
const asTable = (headers: string[], rows: unknown[][]): string => formatTable(rows.map((r) => Object.fromEntries(headers.map((h, k) => [h, r[k] ?? '']))));
process.stdout.write(`Valuation scorecard over ${label} (test = last 20% of each source's sales by date)\n`);
process.stdout.write(`models: ${card.sources.length ? card.sources.map((s) => `${s.source} ${s.model}`).join('; ') : 'none (no source has a comparable sale)'}\n`);
for (const k of kernels) process.stdout.write(`kernel: ${k}\n`);
for (const u of unvalued) process.stdout.write(`${unvaluedLine(u)}\n`);
process.stdout.write('subject: record = address found; request = address not found, sqft sent; typical = address not found, no sqft sent\n\n');
process.stdout.write(asTable(ACCURACY_HEADERS, accuracyRows(card)));
process.stdout.write(`\nFairness of the recorded subjects by sale-price quartile (accepted: PRD ${card.accepted.prd.join('-')}, PRB ${card.accepted.prb.join('..')})\n\n`);
process.stdout.write(asTable(FAIRNESS_HEADERS, fairnessRows(card)));
process.stdout.write('\nBaselines (same test sales, subject characteristics known)\n\n');
process.stdout.write(formatTable(base.map((r) => ({
  source: r.source, baseline: r.baseline, n: r.n, 'MdAPE %': r.mdape, 'PPE10 %': r.ppe10, 'PPE20 %': r.ppe20, 'coverage %': r.coverage ?? '', 'width %': r.width ?? '',
}))));
for (const s of skipped) process.stdout.write(`skipped ${s.source}: ${s.reason}\n`);
process.stdout.write('\nCalibration (q = 80% conformal quantile of |log(actual / estimate)|)\n\n');
process.stdout.write(formatTable(table.map((r) => ({ source: r.source, subject: r.mode, confidence: r.tier, n: r.n, q: r.q, 'width %': Number(((Math.exp(r.q) - Math.exp(-r.q)) * 100).toFixed(1)) }))));
if (values.breakdown) {
  const rows: Record<string, unknown>[] = [];
  for (const data of sets) {
    const test = preds.filter((p) => p.source === data.source && p.slice === 'test' && p.mode === 'record');
    if (!shown.has(data.source) || test.length === 0) continue;
    const prices = test.map((p) => p.actual).sort((a, b) => a - b);
    const cuts = [0.25, 0.5, 0.75].map((q) => prices[Math.floor(prices.length * q)]!);
    const testStart = Date.parse(splits[data.source]!.test_start) / 86_400_000;
    const by: [string, (p: Prediction) => string | null][] = [
      ['price quartile', (p) => `q${1 + cuts.filter((c) => p.actual >= c).length}`],
      ['type', (p) => PROPERTY_TYPES[data.type[p.row]!] ?? '?'],
      ['months after split', (p) => String(Math.floor((data.day[p.row]! - testStart) / 30.44))],
      ['comps kept', (p) => (p.compCount >= 15 ? '15' : p.compCount >= 10 ? '10-14' : p.compCount >= 5 ? '5-9' : '1-4')],
      ['median comp km', (p) => (p.distKm === null || p.distKm === undefined ? null : p.distKm < 0.5 ? '<0.5' : p.distKm < 1 ? '0.5-1' : p.distKm < 2 ? '1-2' : '>=2')],
      ['median comp age (months)', (p) => (p.ageMonths === undefined ? null : p.ageMonths < 3 ? '<3' : p.ageMonths < 6 ? '3-6' : p.ageMonths < 9 ? '6-9' : '>=9')],
    ];
    for (const [name, key] of by) {
      const groups = new Map<string, Prediction[]>();
      for (const p of test) { const k = key(p); if (k !== null) (groups.get(k) ?? groups.set(k, []).get(k)!).push(p); }
      for (const [k, g] of [...groups].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }))) {
        rows.push({ source: data.source, by: name, group: k, n: g.length, 'MdAPE %': metrics(g).mdape,
          'bias %': Number((100 * median(g.map((p) => Math.log(p.estimate / p.actual)))).toFixed(1)) });
      }
    }
  }
  process.stdout.write('\nWhere the error is (test slice, recorded subjects; bias = median log(estimate / actual), + = valued high)\n\n');
  process.stdout.write(formatTable(rows));
}
const all = (source: string, mode = 'record'): SummaryRow | undefined => summary.find((r) => r.source === source && r.mode === mode && r.tier === 'all');
const inBand = (c: number | null | undefined, lo = 78, hi = 82): boolean => c !== null && c !== undefined && c >= lo && c <= hi;
const kc = all('king_county');
const kcFair = card.fairness.find((r) => r.source === 'king_county' && r.price_tier === 'all');
// issue 24's goals (record subjects unless named)
const goals: Record<string, boolean> = {};
if (kc) Object.assign(goals, { kc_mdape_le_7_5: kc.mdape <= 7.5, kc_ppe10_ge_62: kc.ppe10 >= 62, kc_coverage_78_82: inBand(kc.coverage),
  kc_request_coverage_78_82: inBand(all('king_county', 'request')?.coverage), kc_typical_coverage_78_82: inBand(all('king_county', 'typical')?.coverage) });
if (kcFair) Object.assign(goals, { kc_prd_0_98_1_03: kcFair.prd_ok, kc_prb_within_0_05: kcFair.prb_ok === true });
if (all('nyc')) goals['nyc_mdape_le_12'] = all('nyc')!.mdape <= 12;
if (all('philadelphia')) goals['philadelphia_mdape_le_15'] = all('philadelphia')!.mdape <= 15;
for (const s of [...shown].filter((x) => !['king_county', 'nyc', 'philadelphia', 'sacramento'].includes(x))) {
  goals[`${s}_mdape_le_8_5`] = (all(s)?.mdape ?? Infinity) <= 8.5; // an unseen market
  goals[`${s}_coverage_77_83`] = inBand(all(s)?.coverage, 77, 83);
}
if (Object.keys(goals).length) process.stdout.write(`\nGoals: ${Object.entries(goals).map(([k, v]) => `${k} ${v ? 'yes' : 'NO'}`).join(', ')}\n`);
const out = values.json ? path.resolve(values.json) : path.join(REPO, 'bench-results', `eval-avm-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify({
  at: new Date().toISOString(), evaluated: label, splits, skipped, scorecard: card, baselines: base, calibration: table, goals,
  seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
}, null, 2));
process.stdout.write(`\nwritten ${path.relative(process.cwd(), out)}\n`);
