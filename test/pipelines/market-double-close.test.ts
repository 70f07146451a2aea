// Double closings (30_market_45_sale_flags.sql, warehouse/docs/market.md "Arm's-length rule"): real deeds of the RAW
// Denver file (read here with DuckDB read_csv, every column as text, as the sources stage loads it) through the
// staging view, the Denver adapter, the arm's-length rule and the resale pairs (30_market_92_resales.sql). A middleman
// who buys a property and sells it to another buyer the same day (or, Denver recording both, by deeds recorded the
// same day) is no market sale: at one price a pass_through, at two a double_close; the end buyer's deed is the sale.
// Before this rule only one-price pairs were flagged: Denver's ~300 two-price pairs counted twice in every price
// figure, and a wholesaler's purchase resold 12 days later (recorded together) counted as an investor flip.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';
import { dataFile } from '../helpers/oracle-raw-comps.ts';
import { flagCounts } from '../../pipelines/intermediate/30_market_46_sale_flags_report.ts';

const REL = 'denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

/** The raw file's rows of these schedule numbers, as raw."denver__sales" (_row = the data row, 1-based). */
async function denverDeeds(schednums: string[]): Promise<void> {
  await ctx.db.run(`create or replace table raw."denver__sales" as
    select * from (select *, '${REL}' as _file, row_number() over () as _row from read_csv('${dataFile(REL)}', all_varchar = true))
    where trim(SCHEDNUM) in (${schednums.map((s) => `'${s}'`).join(', ')})`);
  await run(ctx, 'pipelines/staging/stg_denver__sales.sql', 'pipelines/intermediate/30_market_13_sales_denver.sql',
    'pipelines/intermediate/30_market_45_sale_flags.sql');
}

describe('double closings in the raw Denver deeds: the middleman\'s purchase is no market sale, the end buyer\'s is', () => {
  test('two prices one day, one price recorded together, a resale that is no sale for value', async () => {
    await denverDeeds(['113306009000', '130411001000', '127308009000', '129215021000', '507414010000']);
    const rows = await ctx.rows(`select parcel_id as parcel, document_id as doc, strftime(sale_date, '%Y-%m-%d') as date,
        strftime(recorded_date, '%Y-%m-%d') as recorded, sale_price as price, buyer_name as buyer, is_arms_length as arms,
        non_arms_length_reason as reason from sales order by parcel_id, document_id`);
    const leg = (parcel: string, doc: string, date: string, recorded: string, price: number, buyer: string, arms: boolean, reason: string | null) =>
      ({ parcel, doc, date, recorded, price, buyer, arms, reason });
    expect(rows).toEqual([
      // KNIGHT -> UNITES COLORADO LLC $220,000, the LLC -> MENUCHA ENTERPRISE LLC $260,100, both dated 2019-01-31
      leg('113306009000', '2019012183', '2019-01-31', '2019-02-04', 220000, 'UNITES COLORADO LLC', false, 'double_close'),
      leg('113306009000', '2019013031', '2019-01-31', '2019-02-06', 260100, 'MENUCHA ENTERPRISE LLC', true, null),
      // a relocation company: dated 04-08 and 04-11, one price, both recorded 2018-05-15
      leg('127308009000', '2018057285', '2018-04-08', '2018-05-15', 505000, 'SIRVA RELOCATION CREDIT LLC', false, 'pass_through'),
      leg('127308009000', '2018057286', '2018-04-11', '2018-05-15', 505000, 'BICUDO,HUGO L', true, null),
      // one day, one price (review 5B's pair), then the end buyer's own resale three months later
      leg('129215021000', '2018084850', '2018-07-09', '2018-07-11', 295000, 'UNITED COLORADO LLC', false, 'pass_through'),
      leg('129215021000', '2018086707', '2018-07-09', '2018-07-16', 295000, 'CLARKE,DAVID', true, null),
      leg('129215021000', '2018133083', '2018-10-12', '2018-10-12', 430000, 'LEFEVRE,ROMAIN', true, null),
      // a wholesaler's two prices dated 12 days apart, recorded the same day 2019-04-17
      leg('130411001000', '2019045794', '2019-04-03', '2019-04-17', 455000, 'UNITED COLORADO LLC', false, 'double_close'),
      leg('130411001000', '2019045841', '2019-04-15', '2019-04-17', 485000, 'CORPORATE FUNDING LLC', true, null),
      // the buyer's same-day deeds go to himself (related parties): no sale for value after his purchase, which stays
      leg('507414010000', '2018097747', '2018-06-19', '2018-08-07', 128000, 'KLEIN,EDWARD', true, null),
      leg('507414010000', '2018097748', '2018-06-19', '2018-08-07', 21333, 'KLEIN,EDWARD', false, 'related_parties'),
      leg('507414010000', '2018097749', '2018-06-19', '2018-08-07', 106700, 'KLEIN,EDWARD', false, 'related_parties'),
      leg('507414010000', '2018155768', '2018-12-05', '2018-12-06', 254500, 'BARNETT,PATRICK T', true, null),
    ]);
    // the build report's "Sales kept but not counted" names the reason like the others
    expect((await flagCounts(ctx.db)).filter((r) => r.kind === 'flag')).toEqual([
      { source: 'denver', kind: 'flag', rule: 'double_close', rows: 2 },
      { source: 'denver', kind: 'flag', rule: 'pass_through', rows: 2 },
      { source: 'denver', kind: 'flag', rule: 'related_parties', rows: 2 },
    ]);
  });

  test('the middleman\'s purchase, re-recorded to itself, stays the deed kept (a sale for value), its copy the duplicate', async () => {
    await denverDeeds(['508622003000']);
    expect(await ctx.rows(`select document_id as doc, sale_price as price, non_arms_length_reason as reason, is_duplicate as dup,
        is_arms_length as arms from sales order by document_id`)).toEqual([
      // SMITH -> ELEVATED EQUITY LLC $190,000; the LLC to itself at the same price (a copy); the LLC -> the end buyer $215,000
      { doc: '2019001505', price: 190000, reason: 'double_close', dup: false, arms: false },
      { doc: '2019001669', price: 190000, reason: 'related_parties', dup: true, arms: false },
      { doc: '2019001702', price: 215000, reason: null, dup: false, arms: true },
      { doc: '2019034457', price: 317000, reason: null, dup: false, arms: true },
    ]);
  });

  test('one date recorded one day: the recorder\'s order is the chain\'s; recorded on different days, the parties\' order', async () => {
    // the 5 raw chains (deeds for value, the first's buyer the second's seller, the same day) whose resale has the lower
    // reception number
    await denverDeeds(['506513030000', '229221022000', '615204148148', '121100102000', '121100103000']);
    expect(await ctx.rows(`select parcel_id as parcel, document_id as doc, sale_price as price, is_arms_length as arms,
        non_arms_length_reason as reason, is_portfolio as portfolio from sales order by parcel_id, document_id`)).toEqual([
      // the builder's new homes (dated 12-03 and 12-05), its lot deed from the developer dated 12-03 on both parcels
      { parcel: '121100102000', doc: '2018155950', price: 483340, arms: true, reason: null, portfolio: false },
      { parcel: '121100102000', doc: '2018156106', price: 525000, arms: false, reason: 'double_close', portfolio: true },
      { parcel: '121100103000', doc: '2018155019', price: 431502, arms: true, reason: null, portfolio: false },
      { parcel: '121100103000', doc: '2018156106', price: 525000, arms: false, reason: 'double_close', portfolio: true },
      // a wholesaler, both dated 2019-02-11: its purchase recorded the day after its resale (and below 17 days after)
      { parcel: '229221022000', doc: '2019017418', price: 415000, arms: true, reason: null, portfolio: false },
      { parcel: '229221022000', doc: '2019018100', price: 400000, arms: false, reason: 'double_close', portfolio: false },
      // dated 2018-12-28, recorded 2019-01-03 in this order: ALLMER's personal representative's deeds to himself and
      // to 735 PERRY STREET LLC at $65,750 ($78/sq ft), then POE's warranty deed to ALLMER at $263,000 ($311/sq ft)
      { parcel: '506513030000', doc: '2019000812', price: 65750, arms: false, reason: 'related_parties', portfolio: false },
      { parcel: '506513030000', doc: '2019000813', price: 65750, arms: false, reason: 'double_close', portfolio: false },
      { parcel: '506513030000', doc: '2019000814', price: 263000, arms: true, reason: null, portfolio: false },
      { parcel: '615204148148', doc: '2019066177', price: 175000, arms: true, reason: null, portfolio: false },
      { parcel: '615204148148', doc: '2019076395', price: 165000, arms: false, reason: 'double_close', portfolio: false },
    ]);
  });

  test('a double closing is no resale pair: neither a 0-day resale nor a wholesaler\'s 12-day flip', async () => {
    await denverDeeds(['113306009000', '130411001000', '129215021000', '507414010000']);
    await run(ctx, 'pipelines/intermediate/30_market_92_resales.sql');
    const pairs = await ctx.rows(`select split_part(property_key, '|', 1) as property, strftime(purchase_date, '%Y-%m-%d') as purchase,
        purchase_price, purchase_by_investor as investor, days_held::int as days, resale_price, is_investor_flip as flip
      from int_market_resales order by property_key`);
    expect(pairs).toEqual([
      { property: 'denver:129215021000', purchase: '2018-07-09', purchase_price: 295000, investor: false, days: 95, resale_price: 430000, flip: false },
      { property: 'denver:507414010000', purchase: '2018-06-19', purchase_price: 128000, investor: false, days: 169, resale_price: 254500, flip: false },
    ]);
  });

  test('any source naming both parties (a canonical file: no recording date): one sale date makes the chain', async () => {
    const deed = (id: string, date: string, price: number, seller: string, buyer: string) => ctx.db.run(`insert into sales
        (sale_id, source, parcel_id, city, state_code, sale_date, sale_price, property_type, seller_name, buyer_name, file, line)
      values ('${id}', 'canonical', 'APN-7', 'Austin', 'TX', '${date}'::date, ${price}, 'sfr', '${seller}', '${buyer}', 'sales.csv', ${id.length})`);
    await deed('a', '2024-03-01', 300000, 'ROE, RICHARD', 'QUICK CLOSE LLC');
    await deed('b', '2024-03-01', 340000, 'Quick Close, LLC', 'DOE, JANE');
    // the next buyer's deed a day later: no recording date to tie it, two sales (a flip the investor rules may count)
    await deed('c', '2024-03-02', 355000, 'DOE, JANE', 'ACME HOMES INC');
    await run(ctx, 'pipelines/intermediate/30_market_45_sale_flags.sql');
    expect(await ctx.rows(`select sale_id as id, is_arms_length as arms, non_arms_length_reason as reason from sales order by sale_id`)).toEqual([
      { id: 'a', arms: false, reason: 'double_close' }, { id: 'b', arms: true, reason: null }, { id: 'c', arms: true, reason: null },
    ]);
  });
});
