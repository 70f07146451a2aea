// A foreclosure docket its court closed is no active pre-foreclosure. Parcel 0532F00136000000 (Plum Boro) listed case
// MG-15-000288, whose one docket row is "Discontinued without Prejudice", as a bare pre_foreclosure with no word of its
// docket. Every Allegheny filing now carries its case's status (active / closed), outcome, status date and last docket
// type, recomputed here from the raw docket file with the test's own SQL (warehouse/docs/market.md "Distress status"),
// and GET /v1/property says them on a real server over the shared build.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, warehouseRows } from '../../helpers/build.ts';
import { ALLEGHENY_FILE, CLOSING } from '../../helpers/oracle-distress.ts';
import { rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';

const FILE = ALLEGHENY_FILE;
interface Case { case_id: string; outcome: string | null; status_date: string | null; docket_type: string }
let cases: Map<string, Case>;

beforeAll(async () => {
  const k = CLOSING.map(([d, o]) => `('${d.replaceAll("'", "''")}', '${o}')`).join(', ');
  const rows = await rawQuery<Case>(`
    with raw as (select *, row_number() over () as rn from read_csv('${FILE}', all_varchar = true)),
    ok as (select trim(case_id) as case_id, try_cast(filing_date as date) as d, trim(docket_type) as docket_type, rn from raw
           where nullif(trim(case_id), '') is not null and nullif(trim(municipality), '') is not null and try_cast(filing_date as date) is not null),
    k(docket_type, outcome) as (values ${k}),
    last as (select case_id, arg_max(outcome, (d, rn)) as outcome, strftime(max(d), '%Y-%m-%d') as status_date from ok join k using (docket_type) group by case_id)
    select case_id, nullif(l.outcome, 'reinstated') as outcome, case when l.outcome <> 'reinstated' then l.status_date end as status_date,
           arg_max(docket_type, (d, rn)) as docket_type
    from ok left join last l using (case_id) group by all`);
  cases = new Map(rows.map((r) => [r.case_id, r]));
}, 120_000);

describe('Allegheny distress status', () => {
  it('every filing carries its case\'s status, outcome, status date and last docket type from the raw file', async () => {
    const rows = await warehouseRows<{ distress_id: string; status: string; outcome: string | null; status_date: string | null; docket_type: string }>(`
      select distress_id, status, outcome, strftime(status_date, '%Y-%m-%d') as status_date, docket_type from distress where source = 'allegheny'`);
    expect(rows.length).toBeGreaterThan(30_000);
    const wrong: string[] = [];
    for (const r of rows) {
      const c = cases.get(r.distress_id.split(':')[1]!)!;
      const want = { status: c.outcome ? 'closed' : 'active', outcome: c.outcome, status_date: c.status_date, docket_type: c.docket_type };
      const got = { status: r.status, outcome: r.outcome, status_date: r.status_date, docket_type: r.docket_type };
      if (JSON.stringify(want) !== JSON.stringify(got)) wrong.push(`${r.distress_id}: ${JSON.stringify(got)} (raw ${JSON.stringify(want)})`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    // of the file's 30,294 cases, the closed ones by outcome
    const closed = new Map<string, number>();
    for (const c of cases.values()) if (c.outcome) closed.set(c.outcome, (closed.get(c.outcome) ?? 0) + 1);
    expect(cases.size).toBe(30_294);
    expect(Object.fromEntries(closed)).toEqual({ discontinued: 4284, satisfied: 261, terminated: 260, sheriff_sale: 119, dismissed: 6 });
  });

  describe('GET /v1/property', () => {
    let server: TestServer;
    beforeAll(async () => { server = await startTestServer(artifactsDir()); });
    afterAll(async () => { await server.close(); });

    it('lists parcel 0532F00136000000\'s discontinued case as closed, with its docket type; its open cases as active', async () => {
      const res = await server.get('/v1/property?parcel_id=0532F00136000000&state=PA', server.key('builder', 1000));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { distress: { date: string; kind: string; status: string | null; outcome: string | null; docket_type: string | null; status_date: string | null }[] };
      expect(schemaErrors('PropertyRecord', body)).toEqual([]);
      const byDate = new Map(body.distress.map((d) => [d.date, d]));
      expect(byDate.get('2015-02-18')).toMatchObject({ kind: 'pre_foreclosure', status: 'closed', outcome: 'discontinued', docket_type: 'Discontinued without Prejudice', status_date: '2015-02-18' });
      expect(byDate.get('2015-10-08')).toMatchObject({ status: 'active', outcome: null, docket_type: 'Sheriff Return', status_date: null });
      expect(byDate.get('2017-01-10')).toMatchObject({ status: 'active', docket_type: 'Rule 3129.3 Postponement of Sale' });
    });
  });
});
