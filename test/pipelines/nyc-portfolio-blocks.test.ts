// NYC's portfolio deeds across tax blocks and its nominal floor (review 16, valuation reviewer #1 and #3; market.md
// "Arm's-length rule"). The source names no document and no buyer, so one deed over several lots shows only as one
// date and one price on each lot: the build read that as a package on one tax block alone, and a deed over buildings on
// several blocks (2024 MADISON AVE and four other Harlem buildings, $7,249,492 each on 2023-05-09) stayed arm's-length,
// a $7.2M comp for a 2,322 sqft building. Now the blocks of one borough share a deed at a price that is no round figure
// (neither a multiple of $500 nor $1 under a multiple of $1,000). SOURCE.md calls a price of $10,000 or less nominal.
// Expected values come from the raw files with this test's own SQL, the build's flags are read from the shared build.
import { describe, expect, it } from 'vitest';
import { serveSharedBuild, warehouseRows } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

const RAW = `
  with raw as (
    select trim("BOROUGH") as b, trim("BLOCK") as blk, trim("BOROUGH") || '-' || trim("BLOCK") || '-' || trim("LOT") as lot,
           upper(trim("ADDRESS")) as addr, try_cast("SALE DATE" as date) as d, try_cast(replace("SALE PRICE", ',', '') as double) as price
    from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)),
  groups as (
    select b, d, price, count(distinct lot) as lots, count(distinct blk) as blocks,
           price % 500 = 0 or (price + 1) % 1000 = 0 as round
    from raw where price > 10000 group by all having count(distinct lot) > 1 and count(distinct blk) > 1)`;

interface Group { b: string; d: string; price: number; lots: number; blocks: number; round: boolean }
const groups = (): Promise<Group[]> => rawQuery<Group>(`${RAW} select b, strftime(d, '%Y-%m-%d') as d, price, lots::int as lots, blocks::int as blocks, round from groups`);
/** The build's NYC rows of a raw group (parcel id borough-block-lot, date and price). */
const buildRows = (gs: Group[]): Promise<{ parcel_id: string; address: string; portfolio: boolean; parcels: number | null; arms: boolean }[]> =>
  warehouseRows(`select parcel_id, address, is_portfolio as portfolio, portfolio_parcels as parcels, is_arms_length as arms from sales
    where source = 'nyc' and split_part(parcel_id, '-', 1) || '|' || strftime(sale_date, '%Y-%m-%d') || '|' || sale_price::bigint in ('${gs.map((g) => `${g.b}|${g.d}|${g.price}`).join("','")}')`);

const api = serveSharedBuild('pro', 100_000);

describe('NYC: one deed over buildings on several tax blocks is a portfolio deed', () => {
  it('the raw $7,249,492 of 2023-05-09: five Manhattan buildings on five blocks; each is a portfolio deed of 5 parcels', async () => {
    const g = (await groups()).find((x) => x.price === 7249492 && x.d === '2023-05-09')!;
    expect(g).toMatchObject({ b: '1', lots: 5, blocks: 5, round: false });
    const rows = await buildRows([g]);
    expect(rows.map((r) => r.parcel_id).sort()).toContain('1-1753-16'); // 2024 MADISON AVE
    expect(rows.length).toBe(5);
    expect(rows.every((r) => r.portfolio && r.parcels === 5 && !r.arms)).toBe(true); // before: all five arm's-length
  });

  it('every raw group at a price no round figure is a portfolio deed in the build; none at a round price is one by it', async () => {
    const gs = await groups();
    const odd = gs.filter((g) => !g.round);
    expect(odd.length).toBe(58); // 465 lots at the shared data (raw)
    const rows = await buildRows(odd);
    expect(rows.length).toBeGreaterThan(400);
    expect(rows.filter((r) => !r.portfolio).map((r) => r.address)).toEqual([]); // before: 124 of them not portfolio
    // $350,007 on 10 Queens houses on 10 blocks; 592 FRANKLIN AVE of $22,072,796 on 14 Brooklyn buildings
    expect(odd.find((g) => g.price === 350007 && g.b === '4')).toMatchObject({ lots: 10, blocks: 10 });
    expect((await buildRows(odd.filter((g) => g.price === 22072796))).find((r) => r.address === '592 FRANKLIN AVE')?.arms).toBe(false);
    // round prices (6,237 groups, 6,210 of them multiples of $1,000): pairs of unrelated sales; the rule leaves the
    // $999,999 sales of one day on two blocks alone (each on a block of its own: no package)
    const nines = gs.filter((g) => g.price === 999999 && g.lots === g.blocks);
    expect(nines.length).toBeGreaterThan(5); // 9 groups at the shared data (raw);
    expect((await buildRows(nines)).filter((r) => r.portfolio)).toEqual([]);
  });

  it('POST /v1/valuation/estimate 2050 Madison Avenue 10035: 2024 MADISON AVE\'s $7,249,492 is no comp', async () => {
    const res = await api.post('/v1/valuation/estimate', { zip: '10035', address: '2050 Madison Avenue' });
    const body = await res.json() as { comps?: { address: string | null; price: number }[] };
    // before: 200, $5,322,100 from that one comp
    expect((body.comps ?? []).filter((c) => c.price === 7249492)).toEqual([]);
  });
});

describe('NYC: a price of $10,000 or less is nominal (SOURCE.md)', () => {
  it('the raw rows at exactly $10,000 are all nominal_price in the build, none arm\'s-length', async () => {
    const [raw] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)
      where try_cast(replace("SALE PRICE", ',', '') as double) = 10000`);
    expect(raw!.n).toBeGreaterThan(90); // 95 at the shared data
    const rows = await warehouseRows<{ reason: string | null; arms: boolean }>(
      `select non_arms_length_reason as reason, is_arms_length as arms from sales where source = 'nyc' and sale_price = 10000`);
    expect(rows.length).toBeGreaterThan(90);
    expect(rows.filter((r) => r.arms || r.reason !== 'nominal_price')).toEqual([]); // before: 84 arm's-length
  });
});
