// A zip that holds a Superfund site says so (review 29: 15225, Neville Island, answered superfund_count_1mi 0 though
// EPA files OHIO RIVER PARK, a final NPL site, under it; 95670 Aerojet and 40272 Distler Farm the same). The rule
// (warehouse/docs/location.md "Superfund within 1 mile"): a counted site whose EPA address zip is the zip counts for it
// when EPA's one coordinate for it lies within the zip's reach, max(16 km, 2 x equivalent radius) of the zip's point,
// and the notes name it. Recomputed here from the RAW npl_sites.csv and the 2025 Gazetteer (LocationOracle), over HTTP
// on a real server: the zip answers, the zip shards, and research's location answer, which reads the same figure.
import { beforeAll, describe, expect, it } from 'vitest';
import { readShard, serveSharedBuild } from '../../helpers/build.ts';
import type { Body } from '../../helpers/location-truth.ts';
import { type LocationOracle, locationOracle, MILE } from '../../helpers/oracle-location.ts';

const ZIPS = { '15225': 'OHIO RIVER PARK', '95670': 'AEROJET GENERAL CORP.', '40272': 'DISTLER FARM' } as const;
const miles = (m: number): string => { const x = Math.round((m / MILE) * 10) / 10; return `${x} mile${x === 1 ? '' : 's'}`; };

describe('Superfund: a site counts for the zip of its EPA address', () => {
  const api = serveSharedBuild('pro', 10_000);
  let oracle: LocationOracle;
  beforeAll(async () => { oracle = await locationOracle(); });

  it('15225, 95670, 40272: the site EPA files under the zip is counted, and the notes say it was counted by its address', async () => {
    for (const [zip, name] of Object.entries(ZIPS)) {
      const want = oracle.zipSites(zip);
      // the premise: the site lies beyond the zip's disk + 1 mile (the distance rule alone counts 0 there), within its reach
      expect(want.byAddress.map((s) => s.name), zip).toEqual([name]);
      const site = want.byAddress[0]!;
      const z = oracle.byZip.get(zip)!;
      expect(site.distance, zip).toBeGreaterThan(z.radius + MILE);
      const r = await api.get(`/v1/location/risk?zip=${zip}`);
      expect(r.status).toBe(200);
      const body = (await r.json()) as Body;
      expect(body).toMatchObject(oracle.expectedZip(zip));
      expect(body.superfund_count_1mi, zip).toBe(want.count);
      expect(body.superfund_count_1mi, zip).toBeGreaterThanOrEqual(1); // before: 0
      expect(body.superfund_nearby).toBe(true);
      expect(body.flood_risk_notes).toContain(`superfund_count_1mi also counts an NPL site by its EPA address in zip ${zip}, not by distance`);
      expect(body.flood_risk_notes).toContain(`${name} (EPA ${site.epa_id}, ${miles(site.distance)} from the zip's point)`);
    }
  });

  it('a site filed under a zip far from its coordinate is not counted there (Hanford 100-Area, 53 km from Richland 99352)', async () => {
    const sites = oracle.sites.filter((s) => s.zip === '99352');
    expect(sites.map((s) => s.name)).toEqual(expect.arrayContaining(['HANFORD 100-AREA (USDOE)', 'HANFORD 300-AREA (USDOE)']));
    const want = oracle.zipSites('99352');
    expect(want.byAddress.map((s) => s.name)).not.toContain('HANFORD 100-AREA (USDOE)');
    const body = readShard<Body>('location/zip/99352.json');
    expect(body.superfund_count_1mi).toBe(want.count);
    expect(body.flood_risk_notes).not.toContain('HANFORD 100-AREA');
  });

  it('every zip shard names exactly the sites the oracle counts by address; a zip without one says nothing of it', () => {
    let withAddress = 0;
    const bad: string[] = [];
    for (const z of oracle.zips) {
      const want = oracle.zipSites(z.zip).byAddress;
      const notes = readShard<Body>(`location/zip/${z.zip}.json`).flood_risk_notes;
      if (want.length) withAddress++;
      const said = notes.includes('by its EPA address') || notes.includes('by their EPA address');
      if (said !== want.length > 0 || !want.every((s) => notes.includes(`${s.name} (EPA ${s.epa_id},`))) bad.push(`${z.zip}: ${want.map((s) => s.name).join('; ')} | ${notes}`);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    // of the counted sites EPA files under a zip of the build, those the distance rule missed within the reach
    expect(withAddress).toBeGreaterThan(150);
  });

  it("research's location answer for 15225 reads the same count and score as the zip answer", async () => {
    const zip = readShard<Body>('location/zip/15225.json');
    const r = await api.post('/v1/research/query', { query: 'superfund risk in 15225' });
    expect(r.status).toBe(200);
    const { answer } = (await r.json()) as { answer: string };
    expect(answer).toContain(`${zip.superfund_count_1mi === 1 ? '1 Superfund site' : `${zip.superfund_count_1mi} Superfund sites`} within 1 mile and an environmental risk score of ${zip.environmental_risk_score} out of 100`);
    expect(answer).not.toMatch(/no Superfund site within 1 mile/);
  });
});
