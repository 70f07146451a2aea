// A market's own name over HTTP (api/shard-replies.ts cityShard): the investor overview of every Allegheny County
// municipality as the foreclosure file names it, and of every Connecticut town as the sales file names it, answers
// that municipality (never a namesake the Census place table knows better: the borough of Baldwin for Baldwin
// Township, "Milford city" for the town of Milford), and a township asked for without "Township" reads as the
// township. The Allegheny distressed pipeline counts are recounted from the raw docket file with the test's own SQL:
// one property per case and parcel (a case naming several parcels counts each, in its own municipality; a case naming
// none counts once), a case dated by its first docket row, over the file's last 12 months (review 5A), a case closed
// by its docket (discontinued, dismissed, satisfied, terminated, sold at sheriff sale, not reinstated) not counted.
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { SOURCES } from '../helpers/oracle-geo.ts';

let srv: TestServer;
let key: string;
let allegheny: { city: string; properties: number }[];
let connecticut: string[];

/** The municipality as the docket file writes it, in full words (the test's own reading of SOURCE.md's names). */
const municipality = (m: string): string => m.trim()
  .replace(/^City of /, '').replace(/ Boro$/, '').replace(/ Twp\.$/, ' Township').replace(/^N\. /, 'North ').replace(/^S\. /, 'South ')
  .replace(/^Mt\. /, 'Mount ').replace(/ Hts\.( |$)/, ' Heights$1').replace(/^Duquesnt$/, 'Duquesne');
/** The docket types that close a case (the test's own reading of the file's 166 types: discontinued, settled,
 *  dismissed, satisfied, terminated, sold at sheriff sale); "Praecipe to Reinstate" reopens one. */
const CLOSING = new Set(['Discontinued without Prejudice', 'Discontinued with Prejudice', 'Discontinued', 'Discontinuance',
  'Settled and Discontinued', 'Case Settled', 'Dismissed without Prejudice', 'Dismissed with Prejudice', 'Order of Court- Case Dismissed',
  'Satisfaction', 'Case Terminated', "Sheriff's Deed"]);
const same = (a: string, b: string): boolean => a.toLowerCase().replace(/[^a-z0-9]/g, '') === b.toLowerCase().replace(/[^a-z0-9]/g, '');

beforeAll(async () => {
  srv = await startTestServer(artifactsDir());
  key = srv.key('builder', 100_000);
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  const q = async <T,>(sql: string): Promise<T[]> => (await conn.runAndReadAll(sql)).getRowObjectsJson() as T[];
  const file = `${SOURCES}/allegheny-county-mortgage-foreclosures/foreclosures.csv.gz`.replaceAll("'", "''");
  const rows = await q<{ pin: string | null; case_id: string; municipality: string; d: string; docket: string | null }>(`
    select nullif(trim(pin), '') as pin, case_id, municipality, filing_date as d, trim(docket_type) as docket
    from read_csv('${file}', all_varchar = true)
    where nullif(trim(case_id), '') is not null and nullif(trim(municipality), '') is not null and try_cast(filing_date as date) is not null
    order by filing_date, case_id`);
  // a closed case (its last closing or reinstating docket row closes it) is no active pre-foreclosure: not counted
  const last = new Map<string, string>();
  for (const r of rows) if (r.docket && (CLOSING.has(r.docket) || r.docket === 'Praecipe to Reinstate')) last.set(r.case_id, r.docket);
  // a case's date: its first docket row; a parcel's municipality: its first docket row in the case
  const caseDate = new Map<string, string>();
  const parcels = new Map<string, { city: string; pins: Map<string, string> }>();
  for (const r of rows) {
    if (!caseDate.has(r.case_id)) caseDate.set(r.case_id, r.d);
    const c = parcels.get(r.case_id) ?? { city: municipality(r.municipality), pins: new Map() };
    if (r.pin && !c.pins.has(r.pin)) c.pins.set(r.pin, municipality(r.municipality));
    parcels.set(r.case_id, c);
  }
  const end = rows.map((r) => r.d).sort().at(-1)!;
  const start = new Date(`${end}T00:00:00Z`);
  start.setUTCMonth(start.getUTCMonth() - 12);
  const from = start.toISOString().slice(0, 10);
  const counted = new Map<string, Set<string>>();
  const cities = new Set<string>();
  for (const [caseId, c] of parcels) {
    const closed = CLOSING.has(last.get(caseId) ?? '');
    const props: [string, string][] = c.pins.size ? [...c.pins].map(([pin, city]) => [city, `pin:${pin}`]) : [[c.city, `case:${caseId}`]];
    for (const [city, prop] of props) {
      cities.add(city);
      if (caseDate.get(caseId)! > from && !closed) counted.set(city, (counted.get(city) ?? new Set()).add(prop));
    }
  }
  allegheny = [...cities].map((city) => ({ city, properties: counted.get(city)?.size ?? 0 }));
  const ct = `${SOURCES}/connecticut-real-estate-sales`.replaceAll("'", "''");
  connecticut = (await q<{ town: string }>(`select distinct trim("Town") as town from read_csv('${ct}/*.csv.gz', all_varchar = true, union_by_name = true)
    where nullif(trim("Town"), '') is not null and trim("Town") <> '***Unknown***' order by 1`)).map((r) => r.town);
  inst.closeSync();
}, 120_000);
afterAll(() => srv?.close());

async function overview(city: string, state: string): Promise<{ status: number; body: { city?: string; distressed_pipeline_count?: number | null; message?: string } }> {
  const res = await srv.get(`/v1/market/investor-overview?city=${encodeURIComponent(city)}&state=${state}&months=12`, key);
  return { status: res.status, body: (await res.json()) as { city?: string } };
}

describe("a market's own name", () => {
  test('every Allegheny municipality answers itself, with its distressed properties recounted from the docket file', async () => {
    expect(allegheny.length).toBeGreaterThan(120);
    const wrong: string[] = [];
    for (const m of allegheny) {
      const r = await overview(m.city, 'PA');
      if (r.status !== 200 || !same(r.body.city ?? '', m.city) || r.body.distressed_pipeline_count !== m.properties) {
        wrong.push(`${m.city}: ${r.status} ${r.body.city ?? r.body.message} ${r.body.distressed_pipeline_count} (raw ${m.properties})`);
      }
    }
    expect(wrong).toEqual([]);
    // the cases review 5A named: a township beside a borough of the same name, and a several-parcel case
    const byName = new Map(allegheny.map((m) => [m.city, m.properties]));
    expect(byName.get('Baldwin Township')).not.toBe(byName.get('Baldwin'));
    expect(byName.get('South Fayette Township')).toBeGreaterThan(20);
  });

  test('a township asked for without "Township" (and "Mt." for Mount) reads as the township when no borough has the name', async () => {
    const names = new Set(allegheny.map((m) => m.city));
    const townships = allegheny.map((m) => m.city).filter((c) => c.endsWith(' Township') && !names.has(c.slice(0, -' Township'.length)));
    expect(townships.length).toBeGreaterThan(30);
    for (const t of townships) {
      const r = await overview(t.slice(0, -' Township'.length).replace(/^Mount /, 'Mt. '), 'PA');
      expect([r.status, r.body.city], t).toEqual([200, t]);
    }
  });

  test('every Connecticut town of the sales file answers itself (Milford is no "Milford city")', async () => {
    expect(connecticut.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const town of connecticut) {
      const r = await overview(town, 'CT');
      if (r.status !== 200 || !same(r.body.city ?? '', town)) wrong.push(`${town}: ${r.status} ${r.body.city ?? r.body.message}`);
    }
    expect(wrong).toEqual([]);
    const trends = await srv.get('/v1/market/trends?city=Milford&state=CT', key);
    expect([trends.status, ((await trends.json()) as { city: string }).city]).toEqual([200, 'Milford']);
  });
});
