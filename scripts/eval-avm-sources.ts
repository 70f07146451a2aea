// `npm run eval:avm -- --sources DIR`: the comp sets of any sources folder, made by the real build's stages (sources
// -> marts, never published) in a temporary artifacts folder, then live/valuation/build.ts loadCompSets on its
// warehouse. DIR is a sources folder (like ../shared/data) or a folder holding a canonical-format `sales.csv` (README
// "Canonical format"): then a temporary sources folder links DIR as `canonical/` beside the default sources' geography
// and reference folders (zips, places, counties: the row contracts check a sale's zip and state against them).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBuild } from '../pipelines/build.ts';
import { loadSettings } from '../warehouse/settings.ts';
import { silentLogger } from '../warehouse/log.ts';
import { openWarehouse, withConnection } from '../warehouse/db.ts';
import { loadCompSets } from '../live/valuation/build.ts';
import type { CompSetData } from '../live/valuation/comps.ts';
import { unvaluedSources, type Unvalued } from '../live/valuation/unvalued.ts';
import { SOURCES } from '../pipelines/sources/registry.ts';

/** Sources that are geography and reference data, not sales (linked beside a canonical sales folder). */
export const REFERENCE_IDS = new Set(['simplemaps', 'usgeo', 'gazetteer', 'cbsa_delineation', 'acs_population', 'geonames', 'hud_crosswalk', 'usps_locale', 'zip_reference', 'zcta_boundaries']);

/** The comp sets of DIR, and its sales sources with no comp set and why (unvalued.ts). */
export async function compSetsFromSources(dir: string): Promise<{ sets: CompSetData[]; unvalued: Unvalued[] }> {
  if (!fs.existsSync(dir)) throw new Error(`--sources ${dir}: no such folder`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-eval-avm-'));
  try {
    let sources = dir;
    if (fs.existsSync(path.join(dir, 'sales.csv'))) {
      sources = path.join(tmp, 'sources');
      fs.mkdirSync(sources);
      const defaults = loadSettings().sources;
      for (const s of SOURCES) {
        if (REFERENCE_IDS.has(s.id) && fs.existsSync(path.join(defaults, s.folder))) fs.symlinkSync(path.join(defaults, s.folder), path.join(sources, s.folder));
      }
      fs.symlinkSync(dir, path.join(sources, 'canonical'));
    }
    const settings = loadSettings({ sources, artifacts: path.join(tmp, 'artifacts') });
    let dirOf: string;
    try {
      dirOf = (await runBuild({ settings, log: silentLogger, until: 'marts' })).dir;
    } catch (err) {
      // failed data checks (exit 4) still leave the warehouse: evaluate it, saying so; any other failure stops here
      const builds = path.join(settings.artifacts, 'builds');
      const kept = fs.existsSync(builds) ? fs.readdirSync(builds).map((d) => path.join(builds, d)).find((d) => fs.existsSync(path.join(d, 'warehouse.duckdb'))) : undefined;
      if ((err as { exitCode?: number }).exitCode !== 4 || !kept) throw err;
      process.stderr.write(`warning: ${(err as Error).message.split(';')[0]}: evaluating the warehouse anyway\n`);
      dirOf = kept;
    }
    const wh = await openWarehouse(path.join(dirOf, 'warehouse.duckdb'), { readOnly: true });
    try {
      return await withConnection(wh, async (db) => {
        const { sets } = await loadCompSets(db);
        return { sets, unvalued: await unvaluedSources(db, sets.map((s) => s.source)) };
      });
    } finally {
      wh.close();
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
