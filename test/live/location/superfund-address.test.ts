// superfund_count_1mi is a distance (warehouse/docs/location.md "Superfund within 1 mile"): a zip counts the NPL sites
// within 1 mile of its area, as anyone recomputes from EPA's coordinates (review 58: 98031 said 3 sites within 1 mile,
// WESTERN PROCESSING, KENT HIGHLANDS and MIDWAY LANDFILL, filed under its address but 4.3 to 8.2 km from its point, and
// 98032 counted them too by distance). A site EPA files under the zip's address whose one coordinate lies beyond that
// mile, within the zip's reach (max(16 km, 2 x equivalent radius) of its point), is named in the notes, not counted
// (review 29: 15225's "0 Superfund" said nothing of OHIO RIVER PARK). Recomputed here from the RAW npl_sites.csv and
// the 2025 Gazetteer (LocationOracle), over HTTP on a real server: the zip answers, the zip shards, and research's
// location answer, which reads the same figure.
import { beforeAll, describe, expect, it } from 'vitest';
import { readShard, serveSharedBuild } from '../../helpers/build.ts';
import type { Body } from '../../helpers/location-truth.ts';
import { type LocationOracle, locationOracle, MILE } from '../../helpers/oracle-location.ts';

const ONE = { '15225': 'OHIO RIVER PARK', '95670': 'AEROJET GENERAL CORP.', '40272': 'DISTLER FARM' } as const;
const KENT = ['WESTERN PROCESSING CO., INC.', 'SEATTLE MUNICIPAL LANDFILL (KENT HIGHLANDS)', 'MIDWAY LANDFILL'];
const miles = (m: number): string => { const x = Math.round((m / MILE) * 10) / 10; return `${x} mile${x === 1 ? '' : 's'}`; };

describe('Superfund: the count is within 1 mile; a site of the zip\'s address beyond it is named, not counted', () => {
  const api = serveSharedBuild('pro', 10_000);
  let oracle: LocationOracle;
  beforeAll(async () => { oracle = await locationOracle(); });
  const zipBody = async (zip: string): Promise<Body> => {
    const r = await api.get(`/v1/location/risk?zip=${zip}`);
    expect(r.status, zip).toBe(200);
    return (await r.json()) as Body;
  };

  it('15225, 95670, 40272: the site EPA files under the zip lies beyond the mile, is not counted, and the notes name it', async () => {
    for (const [zip, name] of Object.entries(ONE)) {
      const want = oracle.zipSites(zip);
      // the premise: the site lies beyond the zip's disk + 1 mile, within its reach
      expect(want.addressBeyond.map((s) => s.name), zip).toEqual([name]);
      const site = want.addressBeyond[0]!;
      expect(site.distance, zip).toBeGreaterThan(oracle.byZip.get(zip)!.radius + MILE);
      expect(want.near.map((s) => s.epa_id), zip).not.toContain(site.epa_id);
      const body = await zipBody(zip);
      expect(body).toMatchObject(oracle.expectedZip(zip));
      expect(body.superfund_count_1mi, zip).toBe(want.count);
      expect(body.superfund_nearby, zip).toBe(want.count > 0);
      expect(body.flood_risk_notes).toContain(`EPA lists ${name} (EPA ${site.epa_id}) at an address in this zip; its one coordinate is ${miles(site.distance)} from the zip's point`);
      expect(body.flood_risk_notes).toContain('so superfund_count_1mi does not count it');
    }
    // Neville Island: nothing within the mile, so none (review 29 had counted 1)
    expect((await zipBody('15225')).superfund_count_1mi).toBe(0);
  });

  it('98031 counts only the sites within 1 mile; the three Kent sites filed under it are named, not counted (review 58)', async () => {
    const want = oracle.zipSites('98031');
    expect(want.addressBeyond.map((s) => s.name).sort()).toEqual([...KENT].sort());
    for (const s of want.addressBeyond) expect(s.distance, s.name).toBeGreaterThan(oracle.byZip.get('98031')!.radius + MILE);
    const body = await zipBody('98031');
    expect(body).toMatchObject(oracle.expectedZip('98031'));
    expect(body.superfund_count_1mi).toBe(want.near.length);
    expect(body.flood_risk_notes).toContain('EPA lists 3 NPL sites at addresses in this zip');
    for (const s of want.addressBeyond) expect(body.flood_risk_notes).toContain(`${s.name} (EPA ${s.epa_id}, ${miles(s.distance)} from the zip's point)`);
    // 98032 counts them by distance, and only there
    const next = oracle.zipSites('98032');
    expect(next.near.map((s) => s.name)).toEqual(expect.arrayContaining(KENT));
    expect((await zipBody('98032')).superfund_count_1mi).toBe(next.count);
  });

  it('a site filed under a zip far from its coordinate is not named there (Hanford 100-Area, 53 km from Richland 99352)', () => {
    const sites = oracle.sites.filter((s) => s.zip === '99352');
    expect(sites.map((s) => s.name)).toEqual(expect.arrayContaining(['HANFORD 100-AREA (USDOE)', 'HANFORD 300-AREA (USDOE)']));
    const want = oracle.zipSites('99352');
    expect(want.addressBeyond.map((s) => s.name)).not.toContain('HANFORD 100-AREA (USDOE)');
    const body = readShard<Body>('location/zip/99352.json');
    expect(body.superfund_count_1mi).toBe(want.count);
    expect(body.flood_risk_notes).not.toContain('HANFORD 100-AREA');
  });

  it('every zip shard counts the sites within 1 mile and names exactly the sites of its address beyond it', () => {
    let named = 0;
    const bad: string[] = [];
    for (const z of oracle.zips) {
      const want = oracle.zipSites(z.zip);
      const body = readShard<Body>(`location/zip/${z.zip}.json`);
      if (want.addressBeyond.length) named++;
      const said = /EPA lists .* at (an address|addresses) in this zip/.test(body.flood_risk_notes);
      if (body.superfund_count_1mi !== want.count || said !== want.addressBeyond.length > 0
        || !want.addressBeyond.every((s) => body.flood_risk_notes.includes(`${s.name} (EPA ${s.epa_id}`))) bad.push(`${z.zip}: ${body.superfund_count_1mi} vs ${want.count}; ${want.addressBeyond.map((s) => s.name).join('; ')} | ${body.flood_risk_notes}`);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    // of the counted sites EPA files under a zip of the build, those the mile leaves out within the reach
    expect(named).toBeGreaterThan(150);
  });

  it("research's location answer for 15225 reads the zip's count and score, and its detail names the site", async () => {
    const zip = readShard<Body>('location/zip/15225.json');
    const r = await api.post('/v1/research/query', { query: 'superfund risk in 15225', depth: 'deep' });
    expect(r.status).toBe(200);
    const { answer } = (await r.json()) as { answer: string };
    expect(zip.superfund_count_1mi).toBe(oracle.zipSites('15225').count);
    expect(answer).toContain(`${zip.superfund_count_1mi === 0 ? 'no Superfund site' : zip.superfund_count_1mi === 1 ? '1 Superfund site' : `${zip.superfund_count_1mi} Superfund sites`} within 1 mile and an environmental risk score of ${zip.environmental_risk_score} out of 100`);
    expect(answer).toContain('EPA lists OHIO RIVER PARK');
  });
});
