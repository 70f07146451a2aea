// Whether a build read an EPA Superfund file (warehouse/docs/location.md "A build without the Superfund file"). A
// canonical sources folder without the folder epa-superfund-sems beside it has no site to count, and its zips read
// "0 Superfund sites within 1 mile" from no file. Now the zip mart writes the Superfund fields and the score built on
// them null (pipelines/marts/40_mart_location_risk.ts), <build>/live/location/meta.json says `superfund_loaded: false`
// (live/location/build.ts; both ask prepare.ts superfundLoaded), and GET /v1/location/risk (zip or point) and the research answers of location risk refuse
// with superfundNotLoaded's words. This module loads no DuckDB: the server's routes read it.
import fs from 'node:fs';
import path from 'node:path';

/** The source folder of the EPA files (pipelines/sources/registry.ts, source `superfund`). */
export const SUPERFUND_FOLDER = 'epa-superfund-sems';

/** The 404 of a location risk answer in such a build; `where`: "zip 98103", "47.6, -122.3". */
export function superfundNotLoaded(where: string): string {
  return `The location risk of ${where} is not known from this build: it read no EPA Superfund file (the folder ${SUPERFUND_FOLDER} was not among its sources), `
    + 'so the count of Superfund sites within 1 mile, and the environmental_risk_score built on it, cannot be given; '
    + 'the build\'s operator links that folder beside canonical/ and builds again (README "Canonical format")';
}

const byDir = new Map<string, boolean>();

/** False when the build at `buildDir` read no Superfund file (its live/location/meta.json says so); true otherwise
 *  (an older build, or one without point-lookup files, answers from its shards as before). Read once per build. */
export function buildHasSuperfund(buildDir: string): boolean {
  let hit = byDir.get(buildDir);
  if (hit === undefined) {
    hit = true;
    try {
      const meta = JSON.parse(fs.readFileSync(path.join(buildDir, 'live', 'location', 'meta.json'), 'utf8')) as { superfund_loaded?: boolean };
      hit = meta.superfund_loaded !== false;
    } catch { /* no point-lookup files */ }
    if (byDir.size > 8) byDir.clear();
    byDir.set(buildDir, hit);
  }
  return hit;
}
