// Market domain, the arm's-length rule (30_market_45_sale_flags.sql, warehouse/docs/market.md "Arm's-length rule"):
// given sales -> the flags it sets (portfolio deeds, nominal prices, related parties, deed types, duplicates), then
// each source's adapter over given raw rows, so the rule sees what that source records. Fresh DuckDB per test.
// Over 300 lines: one rule's cases, part by part and source by source, beside the fixtures they share.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, rawTable, rejects, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

interface Deed { id: string; source?: string; parcel?: string | null; address?: string | null; unit?: string | null; zip?: string | null;
  city?: string; state?: string; date?: string; price?: number; buyer?: string | null; seller?: string | null; doc?: string | null;
  deed?: string | null; nonUse?: string | null; block?: string | null; line?: number }

async function deeds(rows: Deed[]): Promise<void> {
  for (const [i, d] of rows.entries()) {
    await ctx.db.run(`insert into sales (sale_id, source, parcel_id, address, unit, city, state_code, zip, sale_date, sale_price, property_type,
        buyer_name, seller_name, document_id, deed_type, non_use_code, block_key, file, line)
      values ($id, $source, $parcel, $address, $unit, $city, $state, $zip, $date::date, $price, 'sfr', $buyer, $seller, $doc, $deed, $nonUse, $block, 'f.csv', $line)`, {
      id: d.id, source: d.source ?? 'test', parcel: d.parcel === undefined ? `P-${d.id}` : d.parcel, address: d.address ?? null, unit: d.unit ?? null,
      city: d.city ?? 'Testville', state: d.state ?? 'CO', zip: d.zip ?? null, date: d.date ?? '2019-02-15', price: d.price ?? 400000,
      buyer: d.buyer ?? null, seller: d.seller ?? null, doc: d.doc ?? null, deed: d.deed ?? null, nonUse: d.nonUse ?? null, block: d.block ?? null,
      line: d.line ?? i + 2,
    });
  }
  await run(ctx, 'pipelines/intermediate/30_market_45_sale_flags.sql');
}

type Flags = { id: string; arms: boolean; reason: string | null; portfolio: boolean; parcels: number | null; duplicate: boolean; of: string | null };
async function flags(): Promise<Record<string, Omit<Flags, 'id'>>> {
  const rows = await ctx.rows<Flags>(`select sale_id as id, is_arms_length as arms, non_arms_length_reason as reason, is_portfolio as portfolio,
      portfolio_parcels as parcels, is_duplicate as duplicate, duplicate_of as of from sales order by sale_id`);
  return Object.fromEntries(rows.map(({ id, ...f }) => [id, f]));
}
const CLEAN = { arms: true, reason: null, portfolio: false, parcels: null, duplicate: false, of: null };

describe('the arm\'s-length rule over given sales (30_market_45_sale_flags.sql)', () => {
  test('portfolio deeds: two or more properties on one date at one price sharing a document, a buyer or a tax block', async () => {
    await deeds([
      // one reception number over three parcels at one total price (Denver); a fourth parcel on it at its own price
      { id: 'doc1', doc: 'R1', price: 900000 }, { id: 'doc2', doc: 'R1', price: 900000 }, { id: 'doc3', doc: 'R1', price: 900000 },
      { id: 'doc4', doc: 'R1', price: 300000 },
      { id: 'doc5', doc: 'R2', price: 900000 },                                   // another deed, same day and price: a sale of its own
      { id: 'doc6', doc: 'R3', price: 900000, date: '2019-02-16' },
      { id: 'doc7', doc: 'R3', price: 900000, date: '2019-02-17' },               // one document, two dates: no package
      // one buyer, one date, one price on two parcels (Philadelphia's townhouse deed); punctuation does not split a name
      { id: 'buy1', source: 'philadelphia', buyer: 'LINDY TOWNHOUSES LLC', price: 3793956, date: '2022-10-17' },
      { id: 'buy2', source: 'philadelphia', buyer: 'Lindy Townhouses, LLC', price: 3793956, date: '2022-10-17' },
      { id: 'buy3', source: 'philadelphia', buyer: 'LINDY TOWNHOUSES LLC', price: 250000, date: '2022-10-17' },
      { id: 'buy4', source: 'philadelphia', buyer: 'LINDY TOWNHOUSES LLC', price: 3793956, date: '2022-10-18' },
      // the same buyer name in another source is another market: not part of that deed
      { id: 'buy5', source: 'canonical', buyer: 'LINDY TOWNHOUSES LLC', price: 3793956, date: '2022-10-17' },
      // NYC names no document or buyer: two lots of one tax block, one day, one price
      { id: 'blk1', source: 'nyc', parcel: '3-100-1', block: '3-100', price: 4000000 }, { id: 'blk2', source: 'nyc', parcel: '3-100-2', block: '3-100', price: 4000000 },
      { id: 'blk3', source: 'nyc', parcel: '3-200-1', block: '3-200', price: 4000000 },
      // a co-op: one lot (one BBL) for the building, two apartments at one price on one day: two properties
      { id: 'coop1', source: 'nyc', parcel: '3-300-1', address: '1 PARK AVE', unit: '3A', block: '3-300', price: 850000 },
      { id: 'coop2', source: 'nyc', parcel: '3-300-1', address: '1 PARK AVE', unit: '4A', block: '3-300', price: 850000 },
    ]);
    const f = await flags();
    const portfolio = (parcels: number) => ({ ...CLEAN, arms: false, portfolio: true, parcels });
    expect(f).toEqual({
      doc1: portfolio(3), doc2: portfolio(3), doc3: portfolio(3), doc4: CLEAN, doc5: CLEAN, doc6: CLEAN, doc7: CLEAN,
      buy1: portfolio(2), buy2: portfolio(2), buy3: CLEAN, buy4: CLEAN, buy5: CLEAN,
      blk1: portfolio(2), blk2: portfolio(2), blk3: CLEAN,
      coop1: portfolio(2), coop2: portfolio(2),
    });
  });

  test('nominal prices, related parties, deed types and non-use codes: the first reason that applies', async () => {
    await deeds([
      { id: 'n0', price: 0 }, { id: 'n1', price: 1 }, { id: 'n9999', price: 9999.99 }, { id: 'n10000', price: 10000 },
      // the same party on both sides, however punctuated
      { id: 'rel', buyer: 'SMITH, JOHN', seller: 'Smith John' }, { id: 'unrel', buyer: 'SMITH,JOHN', seller: 'SMITH,MARY', price: 410000 },
      // Connecticut's non-use codes: 01 family, 02 love and affection, 03 inter-corporation are related parties
      { id: 'ct01', source: 'connecticut', nonUse: '01 - Family' }, { id: 'ct2', source: 'connecticut', nonUse: '2' },
      { id: 'ct03', source: 'connecticut', nonUse: '03 - Inter Corporation' },
      { id: 'ct14', source: 'connecticut', nonUse: '14 - Foreclosure' }, { id: 'ct25', source: 'connecticut', nonUse: '25 - Other' },
      // Denver's instruments: deeds for value pass, a quit claim or an affidavit does not
      { id: 'wd', deed: 'WD' }, { id: 'sw', deed: 'sw' }, { id: 'pr', deed: 'PR' }, { id: 'tr', deed: 'TR' }, { id: 'bs', deed: 'BS' },
      { id: 'qc', deed: 'QC' }, { id: 'af', deed: 'AF' },
      // order: a nominal price first, then parties, then the deed type, then any other code
      { id: 'nomrel', price: 5000, buyer: 'A B', seller: 'A B' }, { id: 'relqc', buyer: 'C D', seller: 'C, D', deed: 'QC' },
      { id: 'qc14', deed: 'QC', nonUse: '14 - Foreclosure' },
    ]);
    const f = await flags();
    const why = (reason: string) => ({ ...CLEAN, arms: false, reason });
    expect(f).toEqual({
      n0: why('nominal_price'), n1: why('nominal_price'), n9999: why('nominal_price'), n10000: CLEAN,
      rel: why('related_parties'), unrel: CLEAN,
      ct01: why('related_parties'), ct2: why('related_parties'), ct03: why('related_parties'), ct14: why('non_use_code'), ct25: why('non_use_code'),
      wd: CLEAN, sw: CLEAN, pr: CLEAN, tr: CLEAN, bs: CLEAN, qc: why('deed_type'), af: why('deed_type'),
      nomrel: why('nominal_price'), relqc: why('related_parties'), qc14: why('deed_type'),
    });
    // every row has a flag value: is_arms_length is never left unknown
    expect(await ctx.rows(`select count(*)::int as n from sales where is_arms_length is null`)).toEqual([{ n: 0 }]);
  });

  test('the sale-to-assessment ratio: outside Q1 - 3 IQR .. Q3 + 3 IQR of its source and type is assessment_ratio', async () => {
    // 40 single-family sales at $200,000 assessed at ratios 0.90 .. 1.10, and four more (0.30, 1.30, 1.45, 2.00): over
    // the 44 ratios Q1 = 0.95 and Q3 = 1.0603 (linear interpolation), so the fences are 0.619 and 1.391 (hand-computed)
    const at = (id: string, ratio: number | null, more: { type?: string; price?: number; source?: string; doc?: string } = {}) => ({
      id, ratio, type: more.type ?? 'sfr', price: more.price ?? 200000, source: more.source ?? 'philadelphia', doc: more.doc ?? null });
    const rows = [
      ...Array.from({ length: 40 }, (_, i) => at(`b${String(i).padStart(2, '0')}`, 0.9 + (0.2 * i) / 39)),
      at('lo', 0.3), at('near', 1.3), at('far', 1.45), at('hi', 2.0),
      at('none', null),                                   // no assessment: the rule cannot apply
      at('nominal', 50, { price: 4000 }),                 // already nominal_price, the first reason; not in the fences' sample
      // a portfolio deed's total price on two parcels: its ratio is an outlier, recorded beside the portfolio flag,
      // and it is not in the fences' sample
      at('pf1', 0.05, { price: 4000000, doc: 'D1' }), at('pf2', 0.05, { price: 4000000, doc: 'D1' }),
      // a multi-family group of 29 sales with one far outlier: fewer than 30 sales, no fences
      ...Array.from({ length: 28 }, (_, i) => at(`m${String(i).padStart(2, '0')}`, 1, { type: 'multi' })), at('mhi', 9, { type: 'multi' }),
      // the same ratio in another source with its own (tight) distribution is judged by that source's fences
      ...Array.from({ length: 30 }, (_, i) => at(`o${String(i).padStart(2, '0')}`, 1.9 + (0.2 * i) / 29, { source: 'canonical' })),
    ];
    for (const [i, r] of rows.entries()) {
      await ctx.db.run(`insert into sales (sale_id, source, parcel_id, city, state_code, sale_date, sale_price, property_type, document_id, assessed_value, file, line)
        values ($id, $source, $parcel, 'Philadelphia', 'PA', '2022-06-01'::date, $price, $type, $doc, $assessed, 'f.csv', $line)`, {
        id: r.id, source: r.source, parcel: `P-${r.id}`, price: r.price, type: r.type, doc: r.doc,
        assessed: r.ratio === null ? null : r.ratio * r.price, line: i + 2 });
    }
    await run(ctx, 'pipelines/intermediate/30_market_45_sale_flags.sql');
    const got = await ctx.rows<{ id: string; reason: string | null; arms: boolean }>(`select sale_id as id, non_arms_length_reason as reason, is_arms_length as arms
      from sales where non_arms_length_reason is not null or not is_arms_length order by sale_id`);
    expect(got).toEqual([
      { id: 'far', reason: 'assessment_ratio', arms: false }, { id: 'hi', reason: 'assessment_ratio', arms: false },
      { id: 'lo', reason: 'assessment_ratio', arms: false }, { id: 'nominal', reason: 'nominal_price', arms: false },
      { id: 'pf1', reason: 'assessment_ratio', arms: false }, { id: 'pf2', reason: 'assessment_ratio', arms: false },
    ]);
  });

  test('the sale-to-assessment ratio is fenced per file of a source: each file is its own roll (Connecticut: grand lists 2021 and 2022)', async () => {
    // file a.csv: 30 sales assessed at 0.90 .. 1.10 of their price; file b.csv: 30 at 0.45 .. 0.55 and one at 1.00. By
    // b's own quartiles (0.475 / 0.525: fences 0.325 .. 0.675) the 1.00 is an extreme outlier; pooled with a's ratios
    // (quartiles about 0.5 and 1.0: fences about -1 .. 2.5) it would not be
    const rows = [
      ...Array.from({ length: 30 }, (_, i) => ({ id: `a${String(i).padStart(2, '0')}`, file: 'a.csv', ratio: 0.9 + (0.2 * i) / 29 })),
      ...Array.from({ length: 30 }, (_, i) => ({ id: `b${String(i).padStart(2, '0')}`, file: 'b.csv', ratio: 0.45 + (0.1 * i) / 29 })),
      { id: 'bhi', file: 'b.csv', ratio: 1.0 },
    ];
    for (const [i, r] of rows.entries()) {
      await ctx.db.run(`insert into sales (sale_id, source, parcel_id, city, state_code, sale_date, sale_price, property_type, assessed_value, file, line)
        values ($id, 'connecticut', $parcel, 'Hamden', 'CT', '2022-06-01'::date, 300000, 'sfr', $assessed, $file, $line)`, {
        id: r.id, parcel: `P-${r.id}`, assessed: r.ratio * 300000, file: r.file, line: i + 2 });
    }
    await run(ctx, 'pipelines/intermediate/30_market_45_sale_flags.sql');
    expect(await ctx.rows(`select sale_id as id, non_arms_length_reason as reason from sales where not is_arms_length`)).toEqual([{ id: 'bhi', reason: 'assessment_ratio' }]);
  });

  test('duplicates: the same sale recorded twice counts once, and the copy kept is the clean, the documented, the later one', async () => {
    await deeds([
      // the same parcel, date and price on two lines: the last line is kept
      { id: 'k10', source: 'king_county', parcel: 'K1', line: 10 }, { id: 'k11', source: 'king_county', parcel: 'K1', line: 11 },
      // a Denver double closing: seller -> relocation company -> buyer, two deeds, one day, one price: two sales, the first
      // a pass-through (no second market price), neither a copy of the other (review 5B: the record hid the first)
      { id: 'reloc', source: 'denver', parcel: 'D1', doc: '2019003368', buyer: 'NEI GLOBAL RELOCATION COMPANY', seller: 'BERGAN,ADAM', deed: 'WD', line: 3 },
      { id: 'final', source: 'denver', parcel: 'D1', doc: '2019003369', buyer: 'THOMPSON,KIMBERLY', seller: 'NEI GLOBAL RELOCATION COMPANY', deed: 'WD', line: 2 },
      // a copy that another rule flags is not the one kept, whatever its document number
      { id: 'prdeed', source: 'denver', parcel: 'D2', doc: '2018019550', buyer: 'GONZALEZ,LAURA', seller: 'GONZALEZ,LAURA', deed: 'PR' },
      { id: 'wddeed', source: 'denver', parcel: 'D2', doc: '2018019548', buyer: 'GONZALEZ,LAURA', seller: 'STALL,HENRY', deed: 'WD' },
      // one deed recorded twice (two reception numbers, the same parties): a copy
      { id: 'rec1', source: 'denver', parcel: 'D3', doc: '2018000001', buyer: 'DOE,JANE', seller: 'ROE,RICHARD', deed: 'WD' },
      { id: 'rec2', source: 'denver', parcel: 'D3', doc: '2018000002', buyer: 'DOE,JANE', seller: 'ROE,RICHARD', deed: 'WD' },
      // Connecticut has no parcel id: the street line + unit + town is the property
      { id: 'ct1', source: 'connecticut', parcel: null, address: '179 HODGE AVE', city: 'Ansonia', state: 'CT', line: 31869 },
      { id: 'ct2', source: 'connecticut', parcel: null, address: '179 HODGE AVE', city: 'Ansonia', state: 'CT', line: 31945 },
      { id: 'ct3', source: 'connecticut', parcel: null, address: '179 HODGE AVE', unit: '2', city: 'Ansonia', state: 'CT' },  // another unit
      { id: 'ct4', source: 'connecticut', parcel: null, address: '179 HODGE AVE', city: 'Ansonia', state: 'CT', date: '2019-03-01' }, // another day
      // the same street line in two sources (an operator's file repeating a public one): the first source's copy is kept
      { id: 'pub', source: 'sacramento', parcel: null, address: '3526 HIGH ST', zip: '95838', state: 'CA', price: 59222 },
      { id: 'own', source: 'canonical', parcel: 'APN-1', address: '3526 HIGH ST', zip: '95838', state: 'CA', price: 59222 },
      // neither a parcel nor a street line: nothing to compare, never a duplicate
      { id: 'anon1', parcel: null }, { id: 'anon2', parcel: null },
    ]);
    const f = await flags();
    const dup = (of: string, reason: string | null = null) => ({ ...CLEAN, arms: false, reason, duplicate: true, of });
    expect(f).toEqual({
      k10: dup('k11'), k11: CLEAN,
      reloc: { ...CLEAN, arms: false, reason: 'pass_through' }, final: CLEAN,
      prdeed: dup('wddeed', 'related_parties'), wddeed: CLEAN, rec1: dup('rec2'), rec2: CLEAN,
      ct1: dup('ct2'), ct2: CLEAN, ct3: CLEAN, ct4: CLEAN,
      pub: dup('own'), own: CLEAN,
      anon1: CLEAN, anon2: CLEAN,
    });
  });
});

describe('each source\'s adapter hands the rule what it records (raw rows -> sales flags)', () => {
  test('NYC: $0 transfers are kept and flagged, not rejected; a tax block package is a portfolio', async () => {
    const base = { BOROUGH: '3', NEIGHBORHOOD: 'PARK SLOPE', 'BUILDING CLASS CATEGORY': '01 ONE FAMILY DWELLINGS', 'TAX CLASS AT PRESENT': '1',
      EASEMENT: null, 'BUILDING CLASS AT PRESENT': 'A1', 'APARTMENT NUMBER': null, 'ZIP CODE': '11215', 'RESIDENTIAL UNITS': '1',
      'COMMERCIAL UNITS': '0', 'TOTAL UNITS': '1', 'LAND SQUARE FEET': '2000', 'GROSS SQUARE FEET': '2000', 'YEAR BUILT': '1910',
      'TAX CLASS AT TIME OF SALE': '1', 'BUILDING CLASS AT TIME OF SALE': 'A1', 'SALE DATE': '2023-05-01' };
    await rawTable(ctx, 'nyc__sales', [
      { ...base, BLOCK: '100', LOT: '1', ADDRESS: '12 SEVENTH AVENUE', 'SALE PRICE': '1500000' },
      { ...base, BLOCK: '100', LOT: '2', ADDRESS: '14 SEVENTH AVENUE', 'SALE PRICE': '0' },
      { ...base, BLOCK: '100', LOT: '3', ADDRESS: '16 SEVENTH AVENUE', 'SALE PRICE': '10' },
      { ...base, BLOCK: '200', LOT: '1', ADDRESS: '1 UNION ST', 'SALE PRICE': '4000000' },
      { ...base, BLOCK: '200', LOT: '2', ADDRESS: '3 UNION ST', 'SALE PRICE': '4000000' },
      { ...base, BLOCK: '300', LOT: '1', ADDRESS: '5 UNION ST', 'SALE PRICE': '-5' },
    ]);
    await run(ctx, 'pipelines/staging/stg_nyc__sales.sql', 'pipelines/intermediate/30_market_12_sales_nyc.sql', 'pipelines/intermediate/30_market_45_sale_flags.sql');
    expect(await ctx.rows(`select line::int as line, sale_price, block_key, is_arms_length as arms, non_arms_length_reason as reason, is_portfolio as portfolio
      from sales order by line`)).toEqual([
      { line: 2, sale_price: 1500000, block_key: '3-100', arms: true, reason: null, portfolio: false },
      { line: 3, sale_price: 0, block_key: '3-100', arms: false, reason: 'nominal_price', portfolio: false },
      { line: 4, sale_price: 10, block_key: '3-100', arms: false, reason: 'nominal_price', portfolio: false },
      { line: 5, sale_price: 4000000, block_key: '3-200', arms: false, reason: null, portfolio: true },
      { line: 6, sale_price: 4000000, block_key: '3-200', arms: false, reason: null, portfolio: true },
    ]);
    // the only reject is the row that breaks the contract (a negative price), not the $0 transfer
    expect((await rejects(ctx)).map((r) => [r.line, r.reason])).toEqual([[7, 'negative_price']]);
    // the $0 lot is a parcel too (it is a real property), with no price
    expect(await ctx.rows(`select parcel_id, last_sale_price from parcels where parcel_id = '3-100-2'`)).toEqual([{ parcel_id: '3-100-2', last_sale_price: null }]);
  });

  test('Denver: the reception number, the instrument and the parties', async () => {
    const deed = (reception: string, schednum: string, instrument: string, price: string, grantor: string, grantee: string) => ({
      SCHEDNUM: schednum, RECEPTION_NUM: reception, INSTRUMENT: instrument, SALE_YEAR: '2019', SALE_MONTHDAY: '215', RECEPTION_DATE: '20190220',
      SALE_PRICE: price, GRANTOR: grantor, GRANTEE: grantee, CLASS: 'R', MKT_CLUS: '22', D_CLASS: '114', D_CLASS_CN: 'SINGLE FAMILY',
      NBHD_1: '134', NBHD_1_CN: 'NORTHFIELD', PIN: schednum });
    await rawTable(ctx, 'denver__sales', [
      deed('2019000001', '0116116017000', 'WD', '582500', 'LOBDELL,JENNIFER', 'ACME HOLDINGS LLC'),
      deed('2019000002', '0116116020000', 'QC', '300000', 'SMITH,JOHN', 'SMITH,MARY'),
      deed('2019000003', '0116116021000', 'WD', '300000', 'SMITH,JOHN', 'SMITH, JOHN'),
      deed('2019000004', '0116116022000', 'SW', '1072400', 'BUILDER LLC', 'KB HOME COLORADO INC'),
      deed('2019000004', '0116116023000', 'SW', '1072400', 'BUILDER LLC', 'KB HOME COLORADO INC'),
      deed('2019000004', '0116116024000', 'SW', '360900', 'BUILDER LLC', 'KB HOME COLORADO INC'),
      deed('2019000005', '0116116025000', 'WD', '0', 'A,B', 'C,D'),
    ]);
    await run(ctx, 'pipelines/staging/stg_denver__sales.sql', 'pipelines/intermediate/30_market_13_sales_denver.sql', 'pipelines/intermediate/30_market_45_sale_flags.sql');
    expect(await ctx.rows(`select document_id as doc, deed_type, is_arms_length as arms, non_arms_length_reason as reason, portfolio_parcels as parcels
      from sales order by line`)).toEqual([
      { doc: '2019000001', deed_type: 'WD', arms: true, reason: null, parcels: null },
      { doc: '2019000002', deed_type: 'QC', arms: false, reason: 'deed_type', parcels: null },
      { doc: '2019000003', deed_type: 'WD', arms: false, reason: 'related_parties', parcels: null },
      { doc: '2019000004', deed_type: 'SW', arms: false, reason: null, parcels: 2 },
      { doc: '2019000004', deed_type: 'SW', arms: false, reason: null, parcels: 2 },
      // the third parcel of that deed carries its own price: not the package's
      { doc: '2019000004', deed_type: 'SW', arms: true, reason: null, parcels: null },
      { doc: '2019000005', deed_type: 'WD', arms: false, reason: 'nominal_price', parcels: null },
    ]);
    expect(await rejects(ctx)).toEqual([]);
  });

  test('Connecticut: the Non Use Code and the town serial number', async () => {
    const sale = (serial: string, address: string, amount: string, nonUse: string | null) => ({
      'Serial Number': serial, 'List Year': '2022', 'Date Recorded': '04/14/2023', Town: 'Ansonia', Address: address,
      'Assessed Value': '150000', 'Sale Amount': amount, 'Sales Ratio': '0.5', 'Property Type': 'Residential', 'Residential Type': 'Single Family',
      'Non Use Code': nonUse, 'Assessor Remarks': null, 'OPM remarks': null, Location: null });
    await rawTable(ctx, 'connecticut__sales_gl', [
      sale('220001', '1 MAIN ST', '300000', null), sale('220002', '2 MAIN ST', '300000', '01 - Family'),
      sale('220003', '3 MAIN ST', '300000', '14 - Foreclosure'), sale('220004', '4 MAIN ST', '0', null),
    ]);
    await run(ctx, 'pipelines/staging/stg_connecticut__sales_gl.sql', 'pipelines/intermediate/30_market_17_sales_connecticut_gl.sql',
      'pipelines/intermediate/30_market_45_sale_flags.sql');
    expect(await ctx.rows(`select document_id as doc, non_use_code, is_arms_length as arms, non_arms_length_reason as reason from sales order by line`)).toEqual([
      { doc: 'Ansonia:2022:220001', non_use_code: null, arms: true, reason: null },
      { doc: 'Ansonia:2022:220002', non_use_code: '01 - Family', arms: false, reason: 'related_parties' },
      { doc: 'Ansonia:2022:220003', non_use_code: '14 - Foreclosure', arms: false, reason: 'non_use_code' },
      { doc: 'Ansonia:2022:220004', non_use_code: null, arms: false, reason: 'nominal_price' },
    ]);
    expect(await rejects(ctx)).toEqual([]);
  });

  test('Philadelphia: book and page, the owner, and the two-digit years repaired and counted', async () => {
    const row = (parcel: string, date: string, price: string, owner: string, book: string | null) => ({
      parcel_number: parcel, location: `${parcel.slice(-2)} LYMAN DRIVE`, unit: null, zip_code: '19153-2301', lat: '39.9', lng: '-75.2',
      owner_1: owner, owner_2: null, sale_date: date, sale_price: price, category_code_description: 'SINGLE FAMILY',
      building_code_description: 'ROW 2 STY MASONRY', number_of_bedrooms: '3', number_of_bathrooms: '1', total_livable_area: '1360',
      year_built: '2021', exterior_condition: '4', interior_condition: '4', market_value: '256300.0', book_and_page: book });
    await rawTable(ctx, 'philadelphia__properties', [
      row('405000101', '2022-10-17 00:00:00', '3793956.0', 'LINDY TOWNHOUSES LLC', '54112169'),
      row('405000102', '2022-10-17 00:00:00', '3793956.0', 'LINDY TOWNHOUSES LLC', '54112169'),
      // one deed, two owners' names: the document still ties them
      row('405000103', '2022-10-19 00:00:00', '1.0', 'CITY OF PHILA', '54112410'),
      row('405000104', '2022-10-19 00:00:00', '1.0', 'PHILA REDEVELOPMENT', '54112410'),
      // '0000000' is no document: two old sales on one day at one price are not a package
      row('405000105', '2069-05-01 00:00:00', '15200.0', 'DINAN FRANCIS T', '0000000'),
      row('405000106', '2069-05-01 00:00:00', '15200.0', 'KELLY ANN', '0000000'),
      row('405000107', '2022-11-01 00:00:00', '210000.0', 'LIN YICHI', '54120001'),
    ]);
    await run(ctx, 'pipelines/staging/stg_philadelphia__properties.sql', 'pipelines/intermediate/30_market_16_sales_philadelphia.sql',
      'pipelines/intermediate/30_market_45_sale_flags.sql');
    expect(await ctx.rows(`select document_id as doc, sale_date::varchar as d, is_arms_length as arms, non_arms_length_reason as reason, portfolio_parcels as parcels
      from sales order by line`)).toEqual([
      { doc: '54112169', d: '2022-10-17', arms: false, reason: null, parcels: 2 },
      { doc: '54112169', d: '2022-10-17', arms: false, reason: null, parcels: 2 },
      { doc: '54112410', d: '2022-10-19', arms: false, reason: 'nominal_price', parcels: 2 },
      { doc: '54112410', d: '2022-10-19', arms: false, reason: 'nominal_price', parcels: 2 },
      { doc: null, d: '1969-05-01', arms: true, reason: null, parcels: null },
      { doc: null, d: '1969-05-01', arms: true, reason: null, parcels: null },
      { doc: '54120001', d: '2022-11-01', arms: true, reason: null, parcels: null },
    ]);
    // the repair is a rule, applied and counted: one meta.repairs row per date moved back 100 years
    expect(await ctx.rows(`select source, line::int as line, rule, detail from meta.repairs order by line`)).toEqual([
      { source: 'philadelphia', line: 6, rule: 'two_digit_year', detail: 'sale_date=2069-05-01 -> 1969-05-01' },
      { source: 'philadelphia', line: 7, rule: 'two_digit_year', detail: 'sale_date=2069-05-01 -> 1969-05-01' },
    ]);
  });

  test('Sacramento: the 4,897 placeholder prices are kept and flagged; repeated rows count once', async () => {
    const row = (street: string, price: string) => ({
      street, city: 'SACRAMENTO', zip: '95838', state: 'CA', beds: '3', baths: '2', sq__ft: '1200', type: 'Residential',
      sale_date: 'Wed May 21 00:00:00 EDT 2008', price, latitude: '38.63', longitude: '-121.43', sale_date_iso: '2008-05-21' });
    await rawTable(ctx, 'sacramento__sales', [row('3526 HIGH ST', '59222'), row('1 BOGUS WAY', '4897'), row('8306 CURLEW CT', '167293'), row('8306 CURLEW CT', '167293')]);
    await run(ctx, 'pipelines/staging/stg_sacramento__sales.sql', 'pipelines/intermediate/30_market_11_sales_sacramento.sql',
      'pipelines/intermediate/30_market_45_sale_flags.sql');
    expect(await ctx.rows(`select line::int as line, is_arms_length as arms, non_arms_length_reason as reason, is_duplicate as dup from sales order by line`)).toEqual([
      { line: 2, arms: true, reason: null, dup: false }, { line: 3, arms: false, reason: 'nominal_price', dup: false },
      { line: 4, arms: false, reason: null, dup: true }, { line: 5, arms: true, reason: null, dup: false },
    ]);
    expect(await rejects(ctx)).toEqual([]);
  });
});
