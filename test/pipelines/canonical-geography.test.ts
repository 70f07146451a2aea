// A canonical folder needs the geography folders beside it (README "Canonical format"; review 21): a sources folder
// with only canonical/ built and published with exit 0 and "0 rejected rows", then answered rehab "no window holds 5
// sales" for a zip with 719, geo "No city named New York", every market tier "rural". The build now fails before any
// load (exit 3, the served build untouched) naming the missing folders; REII_GEOGRAPHY_REQUIRED=0 builds with a
// warning. The hazard folders are optional: their absence is a warning naming GET /v1/location/risk.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runBuild } from '../../pipelines/build.ts';
import { checkCanonicalGeography } from '../../pipelines/sources/index.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger, type Logger } from '../../warehouse/log.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { CliError, EXIT } from '../../warehouse/errors.ts';
import { HEADER, sale } from '../helpers/canonical-sources.ts';
import { makeContext } from '../helpers/context.ts';
import { PINNED_NOW } from '../helpers/clock.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { publishedSmallBuild } from '../helpers/small-build.ts';

afterAll(removeTmpDirs);

// the folders of the data folder (../shared/data), by their names there
const GEO = ['simplemaps-uscities', 'usgeo-census-tables', 'census-gazetteer-2025', 'census-cbsa-delineation-2023', 'census-acs2023-population',
  'geonames-us-postal-codes', 'hud-usps-zip-county-crosswalk', 'usps-zip-locale-detail', 'us-zip-reference'];
const HAZARDS = ['epa-superfund-sems', 'fema-nfhl-flood-zones', 'fema-nri', 'zcta-boundaries-2010'];

/** A sources folder: symlinks to `folders` of the data folder, and a canonical sales.csv of 20 sales. */
function sources(folders: string[]): string {
  const dir = tmp('reii-geo-src-');
  for (const f of folders) fs.symlinkSync(path.join(SHARED_DATA, f), path.join(dir, f));
  fs.mkdirSync(path.join(dir, 'canonical'));
  fs.writeFileSync(path.join(dir, 'canonical', 'sales.csv'), [HEADER, ...Array.from({ length: 20 }, (_, i) => sale({ address: `${i + 1} MAIN ST` }))].join('\n') + '\n');
  return dir;
}

async function check(folders: string[], geographyRequired?: string): Promise<{ error: unknown; warnings: string[] }> {
  const warnings: string[] = [];
  const base = await makeContext({ sources: sources(folders) });
  const ctx = { ...base, settings: loadSettings({ sources: base.settings.sources, geographyRequired }), log: { ...silentLogger, warn: (m: string) => { warnings.push(m); } } as Logger };
  try {
    checkCanonicalGeography(ctx);
    return { error: null, warnings };
  } catch (error) {
    return { error, warnings };
  } finally { base.close(); }
}

describe('the geography beside a canonical folder', () => {
  test('the data folder holds every folder named here', () => {
    for (const f of [...GEO, ...HAZARDS]) expect(fs.existsSync(path.join(SHARED_DATA, f)), f).toBe(true);
  });

  test('canonical/ alone: the build fails at its sources stage (exit 3) naming the nine folders and the README section; current untouched', async () => {
    const { artifacts, dir: goodDir } = await publishedSmallBuild(path.join(tmp('reii-geo-art-'), 'artifacts'));
    const err = await runBuild({ settings: loadSettings({ artifacts, sources: sources([]) }), log: silentLogger, now: PINNED_NOW }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.stage);
    const message = (err as Error).message;
    expect(message).toMatch(/^stage sources failed in canonical\/: canonical\/ has no geography beside it: missing folder\(s\) /);
    for (const f of GEO) expect(message).toContain(f);
    expect(message).toContain('see README "Canonical format"');
    expect(currentBuildDir(artifacts)).toBe(goodDir);
  }, 300_000);

  test('one folder missing is named alone', async () => {
    const { error } = await check([...GEO.filter((f) => f !== 'geonames-us-postal-codes'), ...HAZARDS]);
    expect((error as Error).message).toContain('missing folder(s) geonames-us-postal-codes in ');
  });

  test('every geography folder present: no error; without the hazard folders a warning names GET /v1/location/risk', async () => {
    expect(await check([...GEO, ...HAZARDS])).toEqual({ error: null, warnings: [] });
    const { error, warnings } = await check(GEO);
    expect(error).toBeNull();
    expect(warnings).toEqual([`canonical: missing hazard folder(s) ${HAZARDS.join(', ')}: GET /v1/location/risk and the research answers of location risk read no file of them`
      + '; without epa-superfund-sems no Superfund count is known, so location risk answers 404 for every zip and point'
      + '; without fema-nfhl-flood-zones every flood zone reads D (undetermined: no FEMA flood map loaded)'
      + '; without fema-nri the environmental_risk_score leaves out the NRI county score'
      + '; without zcta-boundaries-2010 each zip is sampled as a circle around its centroid, not its own boundary'
      + '; link them beside canonical/ (see README "Canonical format")']);
  });

  test('REII_GEOGRAPHY_REQUIRED=0: a warning naming the folders and what goes wrong, no error; another value is refused by name', async () => {
    const { error, warnings } = await check(HAZARDS, '0');
    expect(error).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`missing folder(s) ${GEO.join(', ')}`);
    expect(warnings[0]).toContain('building anyway (REII_GEOGRAPHY_REQUIRED=0)');
    expect(() => loadSettings({ geographyRequired: 'yes' })).toThrow('setting geographyRequired must be 0 or 1, got "yes"');
  });
});
