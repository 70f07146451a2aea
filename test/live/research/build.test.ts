// The research index step (live/research/build.ts) over given `regulations` rows in a fresh in-memory DuckDB
// (test/helpers/context.ts): the index it writes, and the module over it answering what it can and degrading honestly.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { ResearchData } from '../../../live/research/data.ts';
import { makeContext } from '../../helpers/context.ts';
import { run as runIndex } from '../../../live/research/build.ts';
import { marketSources, marketWindows } from '../../../live/research/market-window-build.ts';
import { allResidential, windowFigure } from '../../../live/research/market-window.ts';
import { stateCounties, stateCovered } from '../../../live/research/state-market-build.ts';
import { DONT_HAVE } from '../../helpers/research.ts';

describe('market.json over given sales rows', () => {
  it('counts each window\'s arm\'s-length sales to the market\'s last sale, and marks the Connecticut 2022 months', async () => {
    const ctx = await makeContext();
    try {
      await ctx.db.run(`create table sales (zip varchar, state_code varchar, city varchar, property_type varchar, sale_date date, sale_price double,
        sqft double, is_arms_length boolean, file varchar, sale_id varchar default gen_random_uuid()::varchar)`);
      // zip 11111 (Testville, CT): its last arm's-length sale of any type is 2024-02-20 (a condo); a flagged sale counts nowhere
      await ctx.db.run(`insert into sales (zip, state_code, city, property_type, sale_date, sale_price, sqft, is_arms_length, file) values
        ('11111', 'CT', 'Testville', 'sfr', '2024-02-10', 100, null, true, 'gl.csv'),
        ('11111', 'CT', 'Testville', 'sfr', '2024-01-05', 300, 1000, true, 'gl.csv'),
        ('11111', 'CT', 'Testville', 'sfr', '2023-12-01', 200, null, true, 'gl.csv'),
        ('11111', 'CT', 'Testville', 'sfr', '2023-11-21', 400, null, true, 'gl.csv'),
        ('11111', 'CT', 'Testville', 'sfr', '2023-11-20', 500, null, true, 'gl.csv'),
        ('11111', 'CT', 'Testville', 'sfr', '2023-10-01', 900, null, true, 'gl.csv'),
        ('11111', 'CT', 'Testville', 'sfr', '2024-02-01', 5, null, false, 'gl.csv'),
        ('11111', 'CT', 'Testville', 'condo', '2024-02-20', 50, null, true, 'gl.csv'),
        (null, 'CT', 'Testville', 'sfr', '2022-03-03', 700, null, true, 'ct2022.csv'),
        (null, 'CT', 'Testville', 'sfr', '2022-03-04', 800, null, true, 'ct2022.csv')`);
      // the trends' monthly mart counts the 2022 file's sales per town and month (untyped_count: test/pipelines/market-trends.test.ts
      // against the raw file); the research index reads those counts
      await ctx.db.run(`create table market_monthly as select * from (values
        ('city', 'CT', 'testville', 'sfr', '2022-03', 2), ('city', 'CT', 'testville', 'sfr', '2024-01', 0), ('city', 'CT', 'testville', 'condo', '2022-03', 1))
        t(market_kind, state_code, city_slug, property_type, month_label, untyped_count)`);
      const mw = await marketWindows(ctx.db);
      // 3 months to 2024-02-20: after 2023-11-20, so 100, 300, 200, 400 (the 2023-11-20 sale is on the boundary, out)
      expect(windowFigure(mw, { zip: '11111', state: 'CT' }, 'sfr', 3)).toEqual({ months: 3, asOf: '2024-02-20', sales: 4, median: null, withArea: 1 });
      // 4 months: 2023-10-20 on, five sales, median 300
      expect(windowFigure(mw, { zip: '11111', state: 'CT' }, 'sfr', 4)).toEqual({ months: 4, asOf: '2024-02-20', sales: 5, median: 300, withArea: 1 });
      // the city market holds the sales without a zip too (24 months to 2024-02-20 reach back past 2022-03): 6 + 2;
      // its 2022-03 sfr sales are the 2022 file's
      expect(windowFigure(mw, { state: 'CT', city: 'Testville' }, 'sfr', 24)?.sales).toBe(8);
      expect(windowFigure(mw, { state: 'CT', city: 'Testville' }, 'sfr', 23)?.sales).toBe(6);
      expect(allResidential(mw, { state: 'CT', city: 'Testville' }, '2022-03')).toBe(2);
      expect(allResidential(mw, { state: 'CT', city: 'Testville' }, '2024-01')).toBe(0);
      expect(allResidential(mw, { zip: '11111', state: 'CT' }, '2022-03')).toBe(0);
      // F4: the state's market holds every arm's-length sale in the state, its towns' sales without a zip too, to the
      // state's last sale (2024-02-20): 3 months as the zip's, 24 months the 6 + 2 of the town; no flagged sale
      const ct = mw.windows['state|CT|sfr']!;
      expect([ct.as_of, ct.n[0], ct.median[1], ct.n[21], ct.n[20]]).toEqual(['2024-02-20', 4, 300, 8, 6]);
      expect(mw.windows['state|CT|condo']!.n[0]).toBe(1);
    } finally {
      ctx.close();
    }
  });

  it('keeps a city part (a New York City borough, int_market_city_parts) as a market of its own sales, as market_monthly does', async () => {
    const ctx = await makeContext();
    try {
      await ctx.db.run(`create table sales (sale_id varchar, zip varchar, state_code varchar, city varchar, property_type varchar, sale_date date,
        sale_price double, sqft double, is_arms_length boolean, file varchar)`);
      // New York: five Brooklyn condo sales to 2024-02-20 and one Manhattan condo sale after them; a flagged Brooklyn sale counts nowhere
      await ctx.db.run(`insert into sales values
        ('b1', '11215', 'NY', 'New York', 'condo', '2024-02-20', 100, null, true, 'nyc.csv'),
        ('b2', '11215', 'NY', 'New York', 'condo', '2024-01-20', 200, null, true, 'nyc.csv'),
        ('b3', '11215', 'NY', 'New York', 'condo', '2023-12-20', 300, null, true, 'nyc.csv'),
        ('b4', '11215', 'NY', 'New York', 'condo', '2023-12-10', 400, null, true, 'nyc.csv'),
        ('b5', '11215', 'NY', 'New York', 'condo', '2023-12-01', 500, null, true, 'nyc.csv'),
        ('b6', '11215', 'NY', 'New York', 'condo', '2024-02-01', 5, null, false, 'nyc.csv'),
        ('m1', '10023', 'NY', 'New York', 'condo', '2024-02-25', 9000, null, true, 'nyc.csv')`);
      await ctx.db.run(`create table int_market_city_parts as select * from (values ('b1', 'NY', 'Brooklyn'), ('b2', 'NY', 'Brooklyn'),
        ('b3', 'NY', 'Brooklyn'), ('b4', 'NY', 'Brooklyn'), ('b5', 'NY', 'Brooklyn'), ('b6', 'NY', 'Brooklyn'), ('m1', 'NY', 'Manhattan')) t(sale_id, state_code, city_part)`);
      const mw = await marketWindows(ctx.db);
      // Brooklyn's window ends at its own last sale (2024-02-20), not New York's (2024-02-25), and holds its sales only
      expect(windowFigure(mw, { state: 'NY', city: 'Brooklyn' }, 'condo', 3)).toEqual({ months: 3, asOf: '2024-02-20', sales: 5, median: 300, withArea: 0 });
      expect(windowFigure(mw, { state: 'NY', city: 'New York' }, 'condo', 3)).toEqual({ months: 3, asOf: '2024-02-25', sales: 6, median: 350, withArea: 0 });
      expect(windowFigure(mw, { state: 'NY', city: 'Manhattan' }, 'condo', 3)?.sales).toBe(1);
    } finally {
      ctx.close();
    }
  });

  it('keeps the sources of each market\'s arm\'s-length sales (a zip, a city, a city part), and none without a source column', async () => {
    const ctx = await makeContext();
    try {
      await ctx.db.run(`create table sales (sale_id varchar, zip varchar, state_code varchar, city varchar, property_type varchar, sale_date date,
        sale_price double, sqft double, is_arms_length boolean, file varchar)`);
      expect(await marketSources(ctx.db)).toEqual({});
      await ctx.db.run(`alter table sales add column source varchar`);
      await ctx.db.run(`insert into sales values
        ('p1', '19103', 'PA', 'Philadelphia', 'sfr', '2022-11-01', 100, 900, true, 'opa.csv', 'philadelphia'),
        ('c1', null, 'CT', 'Hartford', 'sfr', '2023-09-01', 100, null, true, 'gl.csv', 'connecticut'),
        ('c2', null, 'CT', 'Hartford', 'sfr', '2022-03-01', 100, null, true, 'ct2022.csv', 'connecticut'),
        ('x1', '19103', 'PA', 'Philadelphia', 'sfr', '2022-11-02', 5, null, false, 'other.csv', 'other'),
        ('b1', '11215', 'NY', 'New York', 'condo', '2024-02-20', 100, null, true, 'nyc.csv', 'nyc')`);
      await ctx.db.run(`create table int_market_city_parts as select * from (values ('b1', 'NY', 'Brooklyn')) t(sale_id, state_code, city_part)`);
      // a sale not at arm's length is in no market's sources
      expect(await marketSources(ctx.db)).toEqual({
        'city|CT|hartford': ['connecticut'], 'city|NY|brooklyn': ['nyc'], 'city|NY|new-york': ['nyc'], 'city|PA|philadelphia': ['philadelphia'],
        'state|CT': ['connecticut'], 'state|NY': ['nyc'], 'state|PA': ['philadelphia'], 'zip|11215': ['nyc'], 'zip|19103': ['philadelphia'],
      });
    } finally {
      ctx.close();
    }
  });
});

describe('a state market\'s months (F4)', () => {
  it('covers a month where a town of the state is covered whole, in part where its towns hold sales only, from the first to the last month', async () => {
    const ctx = await makeContext();
    try {
      // Testville's months 2022-01..03 (2022-02 covered whole), Otherton's 2022-05 in part; 2022-04 none of them: '0'
      await ctx.db.run(`create table market_monthly as select * from (values
        ('city', 'CT', 'testville', 'sfr', '2022-01', 3, false), ('city', 'CT', 'testville', 'condo', '2022-02', 1, true),
        ('city', 'CT', 'testville', 'sfr', '2022-03', 0, false), ('city', 'CT', 'otherton', 'sfr', '2022-05', 2, false),
        ('city', 'NY', 'queens', 'condo', '2024-02', 9, true), ('zip', null, null, 'sfr', '2020-01', 5, true))
        t(market_kind, state_code, city_slug, property_type, month_label, sale_count, covered)`);
      expect(await stateCovered(ctx.db)).toEqual({ 'state|CT': ['2022-01', 'p100p'], 'state|NY': ['2024-02', '1'] });
    } finally {
      ctx.close();
    }
  });
});

describe('a state market\'s counties (F4)', () => {
  it('counts the counties of its arm\'s-length sales by city or zip against all its counties: whole only where they are equal', async () => {
    const ctx = await makeContext();
    try {
      // Connecticut: two towns (no zip) in both its counties; New York: a zip in each of two counties (one city), of three;
      // a flagged sale in New York's third county counts for none
      await ctx.db.run(`
        create table counties as select * from (values ('09110', 'CT'), ('09120', 'CT'), ('36047', 'NY'), ('36081', 'NY'), ('36061', 'NY')) t(county_fips, state_code);
        create table cities as select * from (values ('CT', 'testville', '09110'), ('CT', 'otherton', '09120'), ('NY', 'new-york', '36061')) t(state_code, city_slug, county_fips);
        create table zips as select * from (values ('11215', 'NY', '36047'), ('11375', 'NY', '36081'), ('10001', 'NY', '36061')) t(zip, state_code, county_fips);
        create table sales as select * from (values
          ('CT', null, 'Testville', true), ('CT', null, 'Otherton', true),
          ('NY', '11215', 'Brooklyn', true), ('NY', '11375', 'Queens', true), ('NY', '10001', 'Nowhere', false)) t(state_code, zip, city, is_arms_length)`);
      expect(await stateCounties(ctx.db)).toEqual({ 'state|CT': [2, 2], 'state|NY': [2, 3] });
    } finally {
      ctx.close();
    }
  });
});

describe('the index step over given rows', () => {
  it('writes the index from the regulations table alone and the module degrades honestly', async () => {
    const ctx = await makeContext();
    try {
      await ctx.db.run(`create table regulations (id varchar, jurisdiction_level varchar, state_code varchar, county_fips varchar, city varchar,
        category varchar, subcategory varchar, title varchar, summary varchar, structured_data json, source_citation varchar, source_url varchar,
        effective_date date, status varchar, verified_at date, last_reviewed_at date, uncertain_fields varchar[])`);
      await ctx.db.run(`insert into regulations values
        ('tx-eviction-nonpayment-notice', 'state', 'TX', null, null, 'eviction', 'nonpayment_notice', 'Texas notice: 3 days', 'Three days.',
         '{"notice_required": true, "notice_days": 3, "day_type": null, "uncertain_fields": []}', 'Tex. Prop. Code 24.005', null, null, 'active', null, '2026-11-21', []),
        ('tx-old', 'state', 'TX', null, null, 'eviction', 'nonpayment_notice', 'Old rule', 'Gone.', '{}', null, null, null, 'expired', null, null, [])`);
      await runIndex(ctx);
      const dir = path.join(ctx.paths.build, 'live', 'research');
      const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { counts: Record<string, number> };
      expect(meta.counts).toMatchObject({ regulations: 1, state_legal: 0, cities: 0, zips: 0 });
      const d = ResearchData.fromBuild(ctx.paths.build)!;
      const e = new ResearchEngine(d, null);
      const r = await e.answer({ query: 'eviction notice for nonpayment in Texas' });
      expect(r.answer).toMatch(/3 days/);
      expect(r.sources).toEqual([{ type: 'regulation', category: 'eviction', citation: 'Tex. Prop. Code 24.005' }]);
      const friendly = await e.answer({ query: 'Is Texas landlord friendly?' });
      expect(friendly.confidence).toBe('low');
      const comps = await e.answer({ query: 'comps for 98103' });
      expect(comps.confidence).toBe('low');
      expect(comps.answer).toMatch(DONT_HAVE);
    } finally {
      ctx.close();
    }
  });
});
