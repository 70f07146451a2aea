// The research index step (live/research/build.ts) over given `regulations` rows in a fresh in-memory DuckDB
// (test/helpers/context.ts): the index it writes, and the module over it answering what it can and degrading honestly.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { ResearchData } from '../../../live/research/data.ts';
import { makeContext } from '../../helpers/context.ts';
import { run as runIndex } from '../../../live/research/build.ts';
import { DONT_HAVE } from '../../helpers/research.ts';

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
