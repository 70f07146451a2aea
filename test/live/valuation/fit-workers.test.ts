// The valuation step's fits on worker threads (live/valuation/fit-tasks.ts): the step writes the same bytes with its
// fits on worker threads as in its own thread (two synthetic sources through the real step, sha256 of every file),
// and a task that throws or a worker that dies fails the step with a message naming the task, never a hang.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isoOfDay } from '../../../live/valuation/helpers.ts';
import { run as runValuationStep } from '../../../live/valuation/build.ts';
import { runOnWorkers, type FitTask, type Job } from '../../../live/valuation/fit-tasks.ts';
import type { CompSetData } from '../../../live/valuation/comps.ts';
import { makeContext } from '../../helpers/context.ts';
import { syntheticMarket } from '../../helpers/valuation-synthetic.ts';

/** sha256 of every file the step wrote under live/valuation/, by name. */
function hashes(dir: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(dir).sort().map((f) => [f, crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, f))).digest('hex')]));
}

describe('live/valuation/build.ts on worker threads', () => {
  it('writes byte-identical files with its fits on two worker threads and in its own thread', async () => {
    const ctx = await makeContext();
    try {
      await ctx.db.run(`create table sales (sale_id varchar, source varchar, parcel_id varchar, address varchar, unit varchar, city varchar, state_code varchar,
        zip varchar, sale_date date, sale_price double, property_type varchar, beds double, baths double, sqft double, year_built integer, condition varchar,
        lat double, lng double, is_arms_length boolean)`);
      // two sources (four tasks over two workers); 800 sales: the full fit and the test slice's fit grow trees (500+ rows)
      const markets: [string, CompSetData][] = [['synthetic', syntheticMarket(800, 5)], ['other', syntheticMarket(700, 9, 0.15, '99902')]];
      for (const [source, set] of markets) {
        const values = set.day.map((d, i) => `('${source}${i}', '${source}', null, '${set.key[i]}', null, 'Testville', 'WA', '${set.zips[0]}', '${isoOfDay(d)}', ${set.price[i]}, 'sfr',
          ${set.beds[i]}, 2, ${set.sqft[i]}, 1990, 'good', ${set.lat[i]}, ${set.lng[i]}, true)`);
        await ctx.db.run(`insert into sales values ${values.join(',')}`);
      }
      const dir = path.join(ctx.paths.build, 'live', 'valuation');
      await runValuationStep(ctx, 0);
      const inThread = hashes(dir);
      await runValuationStep(ctx, 2);
      const onWorkers = hashes(dir);
      expect(Object.keys(inThread)).toEqual(expect.arrayContaining(['params-synthetic.json', 'params-other.json', 'comps-other.arrow', 'backtest.json', 'calibration.json', 'scorecard.json']));
      expect(onWorkers).toEqual(inThread);
      // the trees were fitted (and so compared) for at least one source
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'params-synthetic.json'), 'utf8')).gbm.trees.length).toBeGreaterThan(0);
    } finally {
      ctx.close();
    }
  });

  it('fails with the task named when a task throws in a worker', async () => {
    const good: FitTask = { kind: 'fit', set: syntheticMarket(100, 1), day: Infinity };
    // a comp set without its columns: CompIndex throws in the worker
    const broken = { kind: 'backtest', set: { source: 'broken', day: [1, 2, 3] }, fitted: [] } as unknown as FitTask;
    const jobs: Job[] = [{ label: 'fit of synthetic', deps: [], task: () => good }, { label: 'backtest of broken', deps: [], task: () => broken }];
    await expect(runOnWorkers(jobs, 2)).rejects.toThrow(/^valuation worker failed \(backtest of broken\): TypeError: .+/);
  });

  it('fails, not hangs, when a worker exits before answering', async () => {
    const task: FitTask = { kind: 'fit', set: syntheticMarket(100, 1), day: Infinity };
    const dies = new URL('data:text/javascript,process.exit(3)');
    await expect(runOnWorkers([{ label: 'fit of synthetic', deps: [], task: () => task }], 1, dies)).rejects.toThrow('valuation worker failed (fit of synthetic): exited with code 3 before answering');
  });
});
