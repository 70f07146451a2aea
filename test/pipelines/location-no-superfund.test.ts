// A build whose sources hold no EPA Superfund folder (a canonical folder without epa-superfund-sems beside it, README
// "Canonical format"): before, every zip and point answered superfund_nearby false, superfund_count_1mi 0 and a score
// built on that 0, from no file. Now the mart holds those fields null, and GET /v1/location/risk and the research
// answers of location risk say the count is not known (warehouse/docs/location.md "A build without the Superfund
// file"). The same steps over the same folders with the EPA folder linked answer the count, so the refusal is the
// missing folder's and nothing else's. Real geography and hazard files from ../shared/data, a real build, a real server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runBuild } from '../../pipelines/build.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';
import { openWarehouse, queryRows, withConnection } from '../../warehouse/db.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { ResearchData } from '../../live/research/data.ts';
import { lookupsOf, ResearchEngine } from '../../live/research/endpoint.ts';
import { GEOGRAPHY } from '../helpers/canonical-sources.ts';
import { PINNED_NOW } from '../helpers/clock.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const HAZARDS_BUT_EPA = ['fema-nfhl-flood-zones', 'fema-nri', 'zcta-boundaries-2010'];
// the geography sources' and the location steps (REII_STEP_FILTER): a build of location risk alone; the research
// module's files need the legal tables (the intermediate steps 20_legal_*: no legal shards)
const STEPS = ['geo', 'simplemaps', 'usgeo', 'gazetteer', 'cbsa_delineation', 'acs_population', 'geonames', 'hud_crosswalk', 'usps_locale', 'zip_reference',
  'superfund', 'nri', 'fema', 'location'];

async function build(folders: string[], research: boolean): Promise<string> {
  const sources = tmp('reii-nosf-src-');
  for (const f of folders) fs.symlinkSync(path.join(SHARED_DATA, f), path.join(sources, f));
  const artifacts = tmp('reii-nosf-art-');
  const stepFilter = [...STEPS, ...(research ? ['20_legal', 'research'] : [])].join(',');
  await runBuild({ settings: loadSettings({ artifacts, sources, stepFilter }), log: silentLogger, now: PINNED_NOW });
  return artifacts;
}

let without: string;
let withEpa: string;
let server: TestServer;
let control: TestServer;

beforeAll(async () => {
  without = await build([...GEOGRAPHY, ...HAZARDS_BUT_EPA], true);
  withEpa = await build([...GEOGRAPHY, ...HAZARDS_BUT_EPA, 'epa-superfund-sems'], false);
  server = await startTestServer(without);
  control = await startTestServer(withEpa);
}, 900_000);

afterAll(async () => {
  await server?.close();
  await control?.close();
  removeTmpDirs();
});

// the answers' words; research lower-cases the first letter after its own lead ('I don't have that: the location ...')
const notKnown = (where: string): string => `location risk of ${where} is not known from this build: it read no EPA Superfund file (the folder epa-superfund-sems was not among its sources)`;

describe('location risk from a build that read no EPA Superfund file', () => {
  test('the mart holds the Superfund fields and the score null for every zip, not 0; with the folder, every zip has them', async () => {
    const count = async (artifacts: string): Promise<{ zips: number; nulls: number; zero: number }> => {
      const db = await openWarehouse(path.join(currentBuildDir(artifacts)!, 'warehouse.duckdb'), { readOnly: true });
      try {
        return (await withConnection(db, (conn) => queryRows<{ zips: number; nulls: number; zero: number }>(conn, `
          select count(*)::int as zips,
                 count(*) filter (where superfund_count_1mi is null and superfund_nearby is null and environmental_risk_score is null)::int as nulls,
                 count(*) filter (where superfund_count_1mi = 0)::int as zero
          from mart_location_risk`)))[0]!;
      } finally { db.close(); }
    };
    const a = await count(without);
    expect(a.zips).toBeGreaterThan(30_000); // every zip of the reference files
    expect(a).toEqual({ zips: a.zips, nulls: a.zips, zero: 0 });
    const b = await count(withEpa);
    expect(b.zips).toBe(a.zips);
    expect(b.nulls).toBe(0);
  });

  test('GET /v1/location/risk of a zip and of a point: 404 saying the count is not known and why; the same build with the folder answers', async () => {
    const key = server.key('starter');
    for (const [q, where] of [['zip=98103', 'zip 98103'], ['zip=19104', 'zip 19104'], ['lat=47.66&lng=-122.35', '47.66, -122.35']] as const) {
      const r = await server.get(`/v1/location/risk?${q}`, key);
      expect(r.status, q).toBe(404);
      const body = await r.json() as { message: string };
      expect(body.message).toContain(notKnown(where));
      expect(body.message).toContain('README "Canonical format"');
      const c = await control.get(`/v1/location/risk?${q}`, control.key('starter'));
      expect(c.status, q).toBe(200);
      const cb = await c.json() as { superfund_count_1mi: number; superfund_nearby: boolean };
      expect(typeof cb.superfund_count_1mi).toBe('number');
    }
    // bad input is still judged first (422), and a zip outside every reference file is still refused
    expect((await server.get('/v1/location/risk?lat=95&lng=0', key)).status).toBe(422);
  });

  test('research: a zip\'s flood and Superfund risk and a state\'s Superfund sites say the count is not known', async () => {
    const dir = currentBuildDir(without)!;
    const engine = new ResearchEngine(ResearchData.fromBuild(dir)!, null, PINNED_NOW.toISOString().slice(0, 10), lookupsOf(dir));
    const zipAnswer = await engine.answer({ query: 'superfund sites near 98103' });
    expect(JSON.stringify(zipAnswer)).toContain(notKnown('zip 98103'));
    expect(JSON.stringify(zipAnswer)).not.toMatch(/no Superfund site within 1 mile/);
    const stateAnswer = await engine.answer({ query: 'how many superfund sites in new jersey' });
    expect(JSON.stringify(stateAnswer)).toContain(notKnown('New Jersey'));
  });
});
