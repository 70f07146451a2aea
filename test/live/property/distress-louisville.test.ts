// A Louisville lien case sold at the commissioner's foreclosure sale is no active distress (review of build
// 20261129T045227759Z-e70dbe): the investor overview counted every case filed in the window, sold or not (24 months:
// 223 properties, 54 of them sold on or before the answer's as_of 2016-06-03; 12 months: 91), and parcel
// 047B00560000's 2014-06-19 tax case read `status: null` with no word of its 2015-12-15 sale for $6,500. Recomputed
// here from the raw file (../shared/data/louisville-metro-lien-foreclosures, SOURCE.md) with the test's own SQL: a case
// with a `Sale Date` on or before the window's end is closed; one sold later still counts in that window.
// Metro code-enforcement lien cases are foreclosure actions before a sale: counted, as the Commonwealth's tax cases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, warehouseRows } from '../../helpers/build.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';

const FILE = dataFile('louisville-metro-lien-foreclosures/foreclosures.csv.gz');
/** The raw file's cases: one row per case and parcel (a repeated row of a case and parcel is one filing). */
const CASES = `(select distinct trim("Civil Case Number") as case_no, nullif(trim(PRCLID), 'NA') as parcel,
                  "Date Action Filed"::date as filed, try_cast(nullif("Sale Date", 'NA') as date) as sold,
                  try_cast(nullif("Sale Price", 'NA') as double) as price, "Civil Case Style" as style
                from read_csv('${FILE}', all_varchar = true))`;

let asOf: string;
const active = new Map<number, { active: number; filed: number; metro: number }>();

beforeAll(async () => {
  // the city's window ends at the file's last filing: no other source records Louisville
  const [end] = await rawQuery<{ as_of: string }>(`select strftime(max(filed), '%Y-%m-%d') as as_of from ${CASES}`);
  asOf = end!.as_of;
  for (const months of [12, 24]) {
    const [r] = await rawQuery<{ active: number; filed: number; metro: number }>(`
      with c as (select * from ${CASES} where filed > date '${asOf}' - interval ${months} month and filed <= date '${asOf}')
      select count(distinct coalesce(parcel, case_no)) filter (where sold is null or sold > date '${asOf}')::int as active,
             count(distinct coalesce(parcel, case_no))::int as filed,
             count(distinct coalesce(parcel, case_no)) filter (where upper(style) like 'METRO%')::int as metro
      from c`);
    active.set(months, r!);
  }
}, 120_000);

describe('Louisville distressed pipeline and commissioner sales', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(artifactsDir()); });
  afterAll(async () => { await server.close(); });

  it('counts only the cases not sold at the commissioner sale by the window end (24 months 169 of 223 filed, 12 months 88)', async () => {
    expect(asOf).toBe('2016-06-03');
    expect(Object.fromEntries(active)).toEqual({
      12: { active: 88, filed: 91, metro: expect.any(Number) },
      24: { active: 169, filed: 223, metro: 73 },
    });
    for (const months of [12, 24]) {
      const res = await server.get(`/v1/market/investor-overview?city=Louisville&state=KY&months=${months}`, server.key('builder', 1000));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { distressed_pipeline_count: number; as_of: string };
      expect({ months, count: body.distressed_pipeline_count, as_of: body.as_of }).toEqual({ months, count: active.get(months)!.active, as_of: asOf });
    }
  });

  it('every Louisville filing carries its sale from the raw file: closed, commissioner_sale, its date and price', async () => {
    const raw = await rawQuery<{ id: string; sold: string | null; price: number | null }>(`
      select 'louisville:' || case_no || coalesce(':' || parcel, '') as id, strftime(sold, '%Y-%m-%d') as sold, price from ${CASES}`);
    const rows = await warehouseRows<{ distress_id: string; status: string; outcome: string | null; status_date: string | null; sale_date: string | null; sale_price: number | null }>(`
      select distress_id, status, outcome, strftime(status_date, '%Y-%m-%d') as status_date, strftime(sale_date, '%Y-%m-%d') as sale_date, sale_price
      from distress where source = 'louisville'`);
    expect(rows.length).toBe(new Set(raw.map((r) => r.id)).size);
    const want = new Map(raw.map((r) => [r.id, r.sold
      ? { status: 'closed', outcome: 'commissioner_sale', status_date: r.sold, sale_date: r.sold, sale_price: r.price }
      : { status: 'active', outcome: null, status_date: null, sale_date: null, sale_price: null }]));
    const wrong = rows.filter((r) => JSON.stringify(want.get(r.distress_id)) !== JSON.stringify({ status: r.status, outcome: r.outcome, status_date: r.status_date, sale_date: r.sale_date, sale_price: r.sale_price }));
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(rows.filter((r) => r.status === 'closed').length).toBe(new Set(raw.filter((r) => r.sold).map((r) => r.id)).size);
  });

  it('GET /v1/property for parcel 047B00560000 shows its tax case closed by the 2015-12-15 sale for $6,500, not as a market sale', async () => {
    const [c] = await rawQuery<{ filed: string; sold: string; price: number }>(`
      select strftime(filed, '%Y-%m-%d') as filed, strftime(sold, '%Y-%m-%d') as sold, price from ${CASES} where parcel = '047B00560000'`);
    expect(c).toEqual({ filed: '2014-06-19', sold: '2015-12-15', price: 6500 });
    const res = await server.get('/v1/property?parcel_id=047B00560000&state=KY', server.key('builder', 1000));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { sales: { date: string; price: number }[]; distress: Record<string, unknown>[] };
    expect(schemaErrors('PropertyRecord', body)).toEqual([]);
    expect(body.distress).toEqual([{ date: c!.filed, kind: 'tax_delinquent', amount: null, docket_type: null, status: 'closed',
      outcome: 'commissioner_sale', status_date: c!.sold, sale_date: c!.sold, sale_price: c!.price }]);
    // the commissioner sale is no recorded market sale: it is on the filing, never in the sales list
    expect(body.sales.filter((s) => s.date === c!.sold)).toEqual([]);
  });

  it('a case never sold is open by all the file records (it has no status column): 113 of 358 filings, open as of its last record 2017-01-13', async () => {
    // the raw columns (SOURCE.md): filing, sale, case, parcel and place; none records a dismissal, redemption or status,
    // and no field of any row names one
    const cols = await rawQuery<{ column_name: string }>(`select column_name from (describe select * from read_csv('${FILE}', all_varchar = true))`);
    expect(cols.map((c) => c.column_name)).toEqual(['Date Action Filed', 'Sale Date', 'Sale Price', 'Civil Case Number', 'Civil Case Style', 'BLOCK', 'LOT',
      'PRCLID', 'STNO', 'PREDIR', 'STNAME', 'SUFFIX', 'POSTDIR', 'ZIP', 'AREA', 'DISTRICT', 'NEIGHBORHOOD', 'ZONING', 'full_address', 'lon', 'lat']);
    const [words] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${FILE}', all_varchar = true) t
      where regexp_matches(upper(t::varchar), 'DISMISS|REDEEM|REDEMPT|CLOSED|SATISF|VACATED|SETTLED')`);
    expect(words!.n).toBe(0);
    const [raw] = await rawQuery<{ filings: number; sold: number; last: string }>(`select count(*)::int as filings, count(sold)::int as sold,
      strftime(greatest(max(filed), max(sold)), '%Y-%m-%d') as last from ${CASES}`);
    expect(raw).toEqual({ filings: 358, sold: 245, last: '2017-01-13' });
    const built = await warehouseRows<{ status: string; n: number }>(`select status, count(*)::int as n from distress where source = 'louisville' group by status order by status`);
    expect(built).toEqual([{ status: 'active', n: raw!.filings - raw!.sold }, { status: 'closed', n: raw!.sold }]);
    // an unsold case's record says how current that is: its source's last record, a commissioner sale (before: the
    // last filing, 2016-06-03, though the file shows which cases were still unsold seven months later)
    const [open] = await rawQuery<{ parcel: string; filed: string }>(`select parcel, strftime(filed, '%Y-%m-%d') as filed from ${CASES} where sold is null and parcel = '046K00040000'`);
    expect(open).toEqual({ parcel: '046K00040000', filed: '2014-02-04' });
    const res = await server.get('/v1/property?parcel_id=046K00040000&state=KY', server.key('builder', 1000));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { as_of: string; distress: { date: string; status: string | null; outcome: string | null }[] };
    expect(body.distress.map((d) => [d.date, d.status, d.outcome])).toEqual([[open!.filed, 'active', null]]);
    expect(body.as_of).toBe(raw!.last);
  });
});
