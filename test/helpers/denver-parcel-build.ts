// One real build until the marts of a canonical deed file keyed by parcel, made once per test run (./once-per-run.ts)
// and read by test/pipelines/canonical-parcel-keyed-build.test.ts and test/live/property/lineage-filled.test.ts (each
// of them built the same Denver folder before). Its sources folder, written from the real files:
//   - the real geography (symlinks into ../shared/data, ./canonical-sources.ts);
//   - canonical: Denver's raw deeds of the parcels 1611* (281 deeds, 279 parcels) keyed by parcel (./canonical-denver.ts):
//     sales.csv leaves address, city, state and zip empty, parcels.csv gives them; one parcel (16110001000, one deed)
//     is left out of parcels.csv;
//   - sacramento and nashville: the real files with the state emptied on a few rows (Sacramento's first five sales of a
//     street line sold once; every application of Nashville's first five parcels, by id, with a zip), where the
//     adapters write their fallback 'CA'/'TN'.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { PINNED_NOW } from './clock.ts';
import { linkGeography, PROPERTY_STEPS } from './canonical-sources.ts';
import { writeDenverCanonical } from './canonical-denver.ts';
import { oncePerRun } from './once-per-run.ts';
import { SHARED_DATA } from './paths.ts';
import { runBuild } from '../../pipelines/build.ts';
import type { Manifest } from '../../pipelines/manifest.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';

export const SACRAMENTO = 'sacramento-real-estate-transactions/sacramento_transactions.csv';
export const NASHVILLE = 'nashville-building-permit-applications/building_permits.csv';
/** The parcel of 1611* left out of parcels.csv. */
export const UNLISTED_PARCEL = '16110001000';

/** A CSV field as written back: quoted when it holds a comma, a quote or a line break. */
const csvField = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** Writes `<sources>/<rel>` from the shared `<rel>.gz`, every record kept in order, the column emptied on the rows
 *  `pick` selects (given the records and a column's index by name). */
function blankColumn(sources: string, rel: string, column: string, pick: (rows: string[][], i: (name: string) => number) => (r: string[]) => boolean): void {
  const [header, ...rows] = parse(zlib.gunzipSync(fs.readFileSync(path.join(SHARED_DATA, `${rel}.gz`))), { bom: true }) as string[][];
  const i = (name: string): number => header!.indexOf(name);
  const blank = pick(rows, i);
  for (const r of rows) if (blank(r)) r[i(column)] = '';
  fs.mkdirSync(path.join(sources, path.dirname(rel)), { recursive: true });
  fs.writeFileSync(path.join(sources, rel), [header!, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n');
}

async function make(dir: string): Promise<void> {
  const sources = path.join(dir, 'sources');
  fs.mkdirSync(sources);
  linkGeography(sources);
  await writeDenverCanonical(sources, { keyed: 'parcel', schednum: `like '1611%'`, unlisted: `= '${UNLISTED_PARCEL}'` });
  blankColumn(sources, SACRAMENTO, 'state', (rows, i) => {
    const key = (r: string[]): string => `${r[i('street')]}|${r[i('zip')]}`;
    const once = rows.filter((r) => rows.filter((o) => key(o) === key(r)).length === 1).slice(0, 5);
    return (r) => once.includes(r);
  });
  blankColumn(sources, NASHVILLE, 'State', (rows, i) => {
    const parcels = new Set([...new Set(rows.filter((r) => r[i('Parcel')] && r[i('ZIP')]).map((r) => r[i('Parcel')]!))].sort().slice(0, 5));
    return (r) => parcels.has(r[i('Parcel')]!);
  });
  const artifacts = path.join(dir, 'artifacts');
  fs.mkdirSync(artifacts);
  const stepFilter = [...PROPERTY_STEPS, 'sacramento', 'nashville'].join(',');
  const r = await runBuild({ settings: loadSettings({ artifacts, sources, stepFilter }), log: silentLogger, now: PINNED_NOW, until: 'marts' });
  fs.writeFileSync(path.join(dir, 'build.json'), JSON.stringify({ dir: path.relative(dir, r.dir) }));
}

export interface DenverParcelBuild {
  /** the sources folder the build read (the lineage's files are under it) */
  sources: string;
  warehouse: string;
  manifest: Manifest;
}

/** The run's build (made by the first test file that asks for it). */
export async function denverParcelBuild(): Promise<DenverParcelBuild> {
  const dir = await oncePerRun('reii-denver-parcel-build', make);
  const build = path.join(dir, (JSON.parse(fs.readFileSync(path.join(dir, 'build.json'), 'utf8')) as { dir: string }).dir);
  return {
    sources: path.join(dir, 'sources'),
    warehouse: path.join(build, 'warehouse.duckdb'),
    manifest: JSON.parse(fs.readFileSync(path.join(build, 'manifest.json'), 'utf8')) as Manifest,
  };
}
