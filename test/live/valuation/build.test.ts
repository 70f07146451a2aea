// The valuation build step (live/valuation/build.ts) over given sales rows in a fresh in-memory DuckDB
// (test/helpers/context.ts): the live files, the calibration table, the scorecard and the report sections it writes, and an engine
// that loads them. The rules: warehouse/docs/valuation.md.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ValuationMeta } from '../../../live/valuation/types.ts';
import { isoOfDay } from '../../../live/valuation/helpers.ts';
import type { CalibrationRow } from '../../../live/valuation/interval.ts';
import { ValuationEngine } from '../../../live/valuation/endpoint.ts';
import { readCompSet } from '../../../live/valuation/comp-arrow.ts';
import { REPORT_TITLE, SCORECARD_TITLE, run as runValuationStep } from '../../../live/valuation/build.ts';
import type { Scorecard } from '../../../live/valuation/scorecard.ts';
import { makeContext } from '../../helpers/context.ts';
import { syntheticMarket } from '../../helpers/valuation-synthetic.ts';

describe('live/valuation/build.ts (given sales rows)', () => {
  it('writes the live files, the calibration table, the scorecard and the report sections', async () => {
    const ctx = await makeContext();
    try {
      const set = syntheticMarket(800, 5);
      await ctx.db.run(`create table sales (sale_id varchar, source varchar, parcel_id varchar, address varchar, unit varchar, city varchar, state_code varchar,
        zip varchar, sale_date date, sale_price double, property_type varchar, beds double, baths double, sqft double, year_built integer, condition varchar,
        lat double, lng double, is_arms_length boolean)`);
      const values = set.day.map((d, i) => `('s${i}', 'synthetic', null, '${set.key[i]}', null, 'Testville', 'WA', '99901', '${isoOfDay(d)}', ${set.price[i]}, 'sfr',
        ${set.beds[i]}, 2, ${set.sqft[i]}, 1990, 'good', ${set.lat[i]}, ${set.lng[i]}, true)`);
      values.push(`('nominal', 'synthetic', null, '1 X ST', null, 'Testville', 'WA', '99901', '2020-06-01', 1, 'sfr', 3, 2, 1500, 1990, 'good', 47.6, -122.3, false)`);
      await ctx.db.run(`insert into sales values ${values.join(',')}`);
      // a zip's city is the warehouse's zip names rule, not the sales' own city: 99901's sales say Testville, its name is
      // Otherton (as NYC's sales say New York of 10469, whose name is Bronx in the comps, rehab, investor and location answers)
      await ctx.db.run(`create table int_market_zip_names as select * from (values ('99901', 'Otherton', 'WA')) t(zip, city, state_code)`);
      await runValuationStep(ctx);
      const dir = path.join(ctx.paths.build, 'live', 'valuation');
      const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as ValuationMeta;
      expect(meta.sources['synthetic']!.comps).toBe(800); // the nominal sale is not a comp
      expect(meta.zips['99901']).toMatchObject({ source: 'synthetic', city: 'Otherton', state: 'WA' });
      const cal = JSON.parse(fs.readFileSync(path.join(dir, 'calibration.json'), 'utf8')) as CalibrationRow[];
      expect(cal.some((c) => c.source === 'synthetic' && c.mode === 'record')).toBe(true);
      const sections = JSON.parse(fs.readFileSync(path.join(ctx.paths.build, 'report-sections.json'), 'utf8')) as { title: string; rows: unknown[][] }[];
      expect(sections.filter((s) => s.title === REPORT_TITLE)).toHaveLength(1);
      expect(sections[0]!.rows.length).toBeGreaterThan(0);
      expect(sections.filter((s) => s.title === SCORECARD_TITLE)).toHaveLength(1);
      const card = JSON.parse(fs.readFileSync(path.join(dir, 'scorecard.json'), 'utf8')) as Scorecard;
      expect(card.sources.map((x) => x.source)).toEqual(['synthetic']);
      expect(card.fairness.filter((r) => r.source === 'synthetic').map((r) => r.price_tier)).toEqual(['all', 'q1', 'q2', 'q3', 'q4']);
      // no property_id macro in this warehouse: the comps carry no ids, and nothing fails
      const comps = readCompSet(path.join(dir, 'comps-synthetic.arrow'));
      expect(comps.pid === undefined || comps.pid.every((p) => p === null)).toBe(true);
      // run twice: the sections are replaced, not duplicated
      await runValuationStep(ctx);
      expect((JSON.parse(fs.readFileSync(path.join(ctx.paths.build, 'report-sections.json'), 'utf8')) as unknown[]).length).toBe(2);
      const engine = ValuationEngine.fromDir(dir);
      expect(engine.answer({ zip: '99901', address: set.key[10]!, condition: 'good' }).ok).toBe(true);
    } finally {
      ctx.close();
    }
  });
});
