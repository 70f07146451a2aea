// Stage "sources": fingerprint every present source file (sha256, bytes) and load CSVs into raw.* tables,
// all columns as VARCHAR so nothing is lost before staging casts. Parser rejects land in meta.rejects.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { StageError } from '../../warehouse/errors.ts';
import { CANONICAL_GEOGRAPHY, LOCATION_SOURCES, SOURCES, canonicalFolderCheck, globToRegExp, type SourceDef, type SourceFile } from './registry.ts';
import { ensureRejectsTable } from './rejects.ts';
import { loadContractCsv, loadCsv } from './csv-load.ts';
import { sha256File } from '../hash.ts';

export interface SourceFileRecord {
  source: string;
  key: string;
  file: string; // path relative to the sources folder
  sha256: string;
  bytes: number;
  rows: number | null; // loaded rows (CSV) or features (GeoJSON)
}

export interface SourceStatus {
  id: string;
  folder: string;
  present: boolean;
  files: SourceFileRecord[];
  missingFiles: string[]; // globs that matched nothing in a present folder
}

/** Files of one registry entry present in the sources folder, sorted by name. */
export function matchFiles(sourcesDir: string, source: SourceDef, file: SourceFile): string[] {
  const dir = path.join(sourcesDir, source.folder);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const re = globToRegExp(file.glob);
  if (file.names) return names.filter((n) => file.names!.includes(n)).sort().map((n) => path.join(dir, n));
  return names.filter((n) => re.test(n) && !n.endsWith('.md') && !n.endsWith('.part') && !n.startsWith('.')).sort().map((n) => path.join(dir, n));
}

/** Which sources are present, without loading anything (used by `reii sources list`). */
export function scanSources(sourcesDir: string): { source: SourceDef; present: boolean; files: Map<string, string[]> }[] {
  return SOURCES.map((source) => {
    const present = fs.existsSync(path.join(sourcesDir, source.folder));
    const files = new Map(source.files.map((f) => [f.key, present ? matchFiles(sourcesDir, source, f) : []]));
    return { source, present, files };
  });
}

const META_DDL = `
create schema if not exists raw;
create schema if not exists meta;
create table if not exists meta.source_files (source varchar, key varchar, file varchar, sha256 varchar, bytes bigint, rows bigint);
`;

export async function createMetaTables(ctx: StageContext): Promise<void> {
  await ctx.db.run(META_DDL);
  await ensureRejectsTable(ctx.db);
}

export async function runSources(ctx: StageContext): Promise<SourceStatus[]> {
  await createMetaTables(ctx);
  await ctx.db.run('delete from meta.source_files');
  // before any load: a misnamed canonical file fails the build at once, not after minutes of loading the others
  checkCanonicalFolder(ctx);
  const statuses: SourceStatus[] = [];
  const totalFiles = SOURCES.reduce((a, s) => a + s.files.reduce((b, f) => b + matchFiles(ctx.paths.sources, s, f).length, 0), 0);
  let doneFiles = 0;
  for (const source of SOURCES) {
    const dir = path.join(ctx.paths.sources, source.folder);
    const status: SourceStatus = { id: source.id, folder: source.folder, present: fs.existsSync(dir), files: [], missingFiles: [] };
    statuses.push(status);
    if (!status.present) {
      if (source.id !== 'canonical') ctx.log.warn(`source ${source.id} absent: skipped`, { folder: dir });
      continue;
    }
    for (const file of source.files) {
      const files = matchFiles(ctx.paths.sources, source, file);
      if (files.length === 0) {
        if (source.id !== 'canonical') {
          status.missingFiles.push(file.glob);
          ctx.log.warn(`source ${source.id}: no file matches ${file.glob}: skipped`);
        }
        continue;
      }
      ctx.log.progress(`sources: ${source.id}/${file.key}`, doneFiles, totalFiles, 'files');
      const rows = file.format !== 'csv' ? null
        : file.requiredColumns ? await loadContractCsv(ctx, source, file, files)
        : await loadCsv(ctx, source, file, files);
      for (const f of files) {
        const rel = path.relative(ctx.paths.sources, f);
        try {
          const stat = fs.statSync(f);
          const record: SourceFileRecord = {
            source: source.id, key: file.key, file: rel,
            sha256: await sha256File(f), bytes: stat.size,
            rows: file.format === 'csv' ? (rows?.get(f) ?? 0) : countFeatures(f),
          };
          status.files.push(record);
          await ctx.db.run(`insert into meta.source_files values ($source, $key, $file, $sha, $bytes, $rows)`,
            { source: record.source, key: record.key, file: record.file, sha: record.sha256, bytes: record.bytes, rows: record.rows });
        } catch (err) {
          throw new StageError('sources', rel, err);
        }
        ctx.log.progress(`sources: ${source.id}/${file.key}`, ++doneFiles, totalFiles, 'files');
      }
      ctx.log.info(`loaded ${source.id}/${file.key}`, { files: files.length, rows: [...(rows?.values() ?? [])].reduce((a, b) => a + b, 0) });
    }
  }
  return statuses;
}

/** A misnamed canonical data file: its path in the sources folder and what the build says of it (the name it should have). */
export interface MisnamedFile { file: string; message: string }

/**
 * The canonical folder's files that the sources stage reads none of: `misnamed` ones fail the build (the build and
 * `reii sources list` both say so from here), `ignored` ones are warned about. Empty when the folder is absent.
 */
export function canonicalFolderFindings(sourcesDir: string): { ignored: string[]; misnamed: MisnamedFile[] } {
  const dir = path.join(sourcesDir, SOURCES.find((s) => s.id === 'canonical')!.folder);
  if (!fs.existsSync(dir)) return { ignored: [], misnamed: [] };
  const { ignored, misnamed } = canonicalFolderCheck(fs.readdirSync(dir));
  return {
    ignored: ignored.map((n) => `canonical/${n}`),
    misnamed: misnamed.map((m) => ({ file: `canonical/${m.name}`, message: `looks like a canonical data file but is not read: ${m.why}` })),
  };
}

/** Fails naming a misnamed canonical data file (Sales.csv, sales_2024.csv); warns naming every other file left unread. */
function checkCanonicalFolder(ctx: StageContext): void {
  const { ignored, misnamed } = canonicalFolderFindings(ctx.paths.sources);
  const bad = misnamed[0];
  if (bad) {
    const others = misnamed.slice(1).map((m) => m.file);
    throw new StageError('sources', bad.file, new Error(`${bad.message}${others.length ? `; also: ${others.join(', ')}` : ''} (see README "Canonical format")`));
  }
  if (ignored.length) ctx.log.warn(`canonical: ignored (not a canonical file name): ${ignored.join(', ')}`);
}

function countFeatures(file: string): number | null {
  try {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { features?: unknown[] };
    return Array.isArray(doc.features) ? doc.features.length : null;
  } catch {
    return null;
  }
}

/** What each hazard folder's absence does to location risk (warehouse/docs/location.md), for the warning. */
const HAZARD_GAPS: readonly [folder: string, gap: string][] = [
  ['epa-superfund-sems', 'without epa-superfund-sems no Superfund count is known, so location risk answers 404 for every zip and point'],
  ['fema-nfhl-flood-zones', 'without fema-nfhl-flood-zones every flood zone reads D (undetermined: no FEMA flood map loaded)'],
  ['fema-nri', 'without fema-nri the environmental_risk_score leaves out the NRI county score'],
  ['zcta-boundaries-2010', 'without zcta-boundaries-2010 each zip is sampled as a circle around its centroid, not its own boundary'],
];

/** The registry folders of `ids` absent from the sources folder. */
function absentFolders(sourcesDir: string, ids: readonly string[]): string[] {
  return ids.map((id) => SOURCES.find((s) => s.id === id)!.folder).filter((folder) => !fs.existsSync(path.join(sourcesDir, folder)));
}

/**
 * A build of a canonical folder (any canonical data file present) needs the geography folders beside it
 * (CANONICAL_GEOGRAPHY): missing ones fail the sources stage before any load, naming them (setting geographyRequired
 * off: a warning naming the answers that go wrong instead). Missing hazard folders are a warning naming the answer
 * that cannot work. Called by the build's sources stage (pipelines/stages.ts), not by tests loading a canonical file alone.
 */
export function checkCanonicalGeography(ctx: StageContext): void {
  const canonical = SOURCES.find((s) => s.id === 'canonical')!;
  if (!canonical.files.some((f) => matchFiles(ctx.paths.sources, canonical, f).length > 0)) return;
  const missing = absentFolders(ctx.paths.sources, CANONICAL_GEOGRAPHY);
  if (missing.length) {
    const what = `canonical/ has no geography beside it: missing folder(s) ${missing.join(', ')} in ${ctx.paths.sources}`
      + ' (the ZIP universe, the zip\'s state and city, the city\'s county, metro and market tier, the housing units of the rehab rates:'
      + ' comps, trends, rehab, investor, geo and property answers read them); link or copy them from the data folder (see README "Canonical format")';
    if (ctx.settings.geographyRequired) throw new StageError('sources', 'canonical/', new Error(`${what}, or set REII_GEOGRAPHY_REQUIRED=0 to build without them`));
    ctx.log.warn(`${what}; building anyway (REII_GEOGRAPHY_REQUIRED=0): zips outside the ZIP universe are not rejected, zips and cities are named from the records alone, the geo lookup knows no city and the investor overview calls every market tier rural`);
  }
  const hazards = absentFolders(ctx.paths.sources, LOCATION_SOURCES);
  if (hazards.length) {
    ctx.log.warn(`canonical: missing hazard folder(s) ${hazards.join(', ')}: GET /v1/location/risk and the research answers of location risk read no file of them${HAZARD_GAPS.filter(([f]) => hazards.includes(f)).map(([, gap]) => `; ${gap}`).join('')}; link them beside canonical/ (see README "Canonical format")`);
  }
}
