// Chicago's building use, step test of pipelines/intermediate/30_market_21_permits_chicago.sql over a fresh DuckDB: the
// express forms' stated unit counts win over the scope's words (warehouse/docs/market.md "Residential rehab"; review 26:
// 316 N Clark St's restaurant read residential from "bathroom"). The descriptions are the raw file's own.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, rawTable, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

test('a form stating units decides before the words; a form stating 0 and 0 leaves the words to decide', async () => {
  const permit = (n: string, address: string, desc: string) => ({
    permit_number: n, permit_status: 'ACTIVE', permit_type: 'PERMIT - EXPRESS PERMIT PROGRAM', review_type: 'EXPRESS PERMIT PROGRAM',
    issue_date: '2026-05-27', address, street_name: null, ward: '42', community_area: '32', community_area_name: 'Loop',
    work_type: 'Nonstructural Interior Work', reported_cost: '30000', latitude: '41.887967', longitude: '-87.63118', general_contractor: null,
    work_description: desc });
  await rawTable(ctx, 'chicago__permits', [
    // B200469500: a restaurant's bathroom, 0 residential units
    permit('1', '316 N CLARK ST', 'SCOPE: NONSTRUCTURAL INTERIOR ALTERATION TO EXISTING RESTAURANT TO RENOVATE ENTRY, HALL AND BATHROOM WITH ASSOCIATED PLUMBING AND ELECTRICAL.LOCATIONS: 0 RESIDENTIAL UNIT(S), 1 NON-RESIDENTIAL UNIT(S), ...'),
    permit('2', '1 A ST', 'REPAIR OR IN-KIND REPLACEMENT OF 2 PLUMBING FIXTURES AS DESCRIBED IN PERMIT APPLICATION.  INCLUDES REPAIR OR REPLACMENT OF PLUMBING PIPING.  AFFECTS: 0 DWELLING UNITS; 1 NON-RESIDENTIAL UNITS'),
    // a dwelling affected: residential, though the scope names the store below it
    permit('3', '2 B ST', 'SCOPE: NONSTRUCTURAL INTERIOR ALTERATION TO STORE AND APARTMENT ABOVE.LOCATIONS: 1 RESIDENTIAL UNIT(S), 1 NON-RESIDENTIAL UNIT(S), ...'),
    // common areas: no unit stated, the words decide (a condominium's basement: residential)
    permit('4', '3 C ST', 'INSTALLATION OF FIRE RATED DRYWALL AT CONDOMINIUM BASEMENT CEILING,  LOCATIONS: 0 RESIDENTIAL UNIT(S), 0 NON-RESIDENTIAL UNIT(S), 1 INTERIOR COMMON AREAS, BASEMENT.'),
  ]);
  await run(ctx, 'pipelines/staging/stg_chicago__permits.sql', 'pipelines/intermediate/30_market_21_permits_chicago.sql');
  expect(await ctx.rows(`select permit_id, building_use from permits order by permit_id`)).toEqual([
    { permit_id: 'chicago:1', building_use: 'nonresidential' },
    { permit_id: 'chicago:2', building_use: 'nonresidential' },
    { permit_id: 'chicago:3', building_use: 'residential' },
    { permit_id: 'chicago:4', building_use: 'residential' },
  ]);
});
