// GET /v1/market/investor-overview: `coverage` and `confidence` against the RAW sales files (audit h75). Before, the
// investor overview's figures were recomputed from raw files (Denver's rate and flips, Philadelphia's rate, the
// distressed pipeline), but its coverage and the confidence that coverage caps were only checked against our own
// build. New York and its five boroughs, Philadelphia and Denver, and a seeded sample of 10 Connecticut towns and 6
// Sacramento cities, every window 3..24 months, asked of a real server over the shared build; the oracle
// (oracle-raw-investor-cover.ts) reads the window to the source's latest arm's-length sale, the days its sales files
// cover with full volume (market.md "Coverage of a window": solid months, no hole) and the count of sales for value
// with a known buyer (market.md "mart_investor" `confidence`).
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { schemaErrors } from '../helpers/server.ts';
import { rawInvestorCover, rawInvestorInputs, type RawCity, type RawInvestorInputs } from '../helpers/oracle-raw-investor-cover.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 75_003;
const MONTHS = Array.from({ length: 22 }, (_, i) => i + 3);

const api = serveSharedBuild('builder', 100_000);
let raw: RawInvestorInputs;
const sample: RawCity[] = [];

beforeAll(async () => {
  raw = await rawInvestorInputs();
  const draw = rng(SEED);
  const pick = (src: string, n: number): RawCity[] => {
    const pool = raw.cities.filter((c) => c.src === src).sort((a, b) => (a.city < b.city ? -1 : 1)), out: RawCity[] = [];
    while (out.length < n && pool.length) out.push(pool.splice(Math.floor(draw() * pool.length), 1)[0]!);
    return out;
  };
  sample.push(...raw.cities.filter((c) => ['nyc', 'philadelphia', 'denver'].includes(c.src)), ...pick('connecticut', 10), ...pick('sacramento', 6));
}, 600_000);

describe(`seeded sample ${SEED}: investor overview coverage and confidence against the raw files`, () => {
  test('the sample: New York, its boroughs, Philadelphia, Denver, 10 Connecticut towns, 6 Sacramento cities', () => {
    expect(sample).toHaveLength(6 + 2 + 10 + 6);
    console.info(`sample ${SEED}: ${sample.map((c) => `${c.city}, ${c.state}`).join('; ')}`);
  });

  test('every city and window 3..24: coverage exactly, confidence the lower of its sample\'s and its coverage\'s', async () => {
    const bad: string[] = [];
    const seen = new Map<string, number>();
    for (const c of sample) {
      for (const months of MONTHS) {
        const res = await api.get(`/v1/market/investor-overview?city=${encodeURIComponent(c.city)}&state=${c.state}&months=${months}`);
        if (res.status !== 200) { bad.push(`${c.city}, ${c.state} ${months}: ${res.status}`); continue; }
        const body = (await res.json()) as { coverage: unknown; confidence: string; as_of: string };
        const errors = schemaErrors('InvestorOverview', body);
        if (errors.length) bad.push(`${c.city} ${months}: ${errors.join('; ')}`);
        const want = rawInvestorCover(raw, c, months);
        if (JSON.stringify(body.coverage) !== JSON.stringify(want.coverage)) bad.push(`${c.city}, ${c.state} ${months}: coverage ${JSON.stringify(body.coverage)}, raw ${JSON.stringify(want.coverage)}`);
        if (body.confidence !== want.confidence) bad.push(`${c.city}, ${c.state} ${months}: confidence ${body.confidence}, raw ${want.confidence} (${want.sample} known buyers, ${want.coverage.records_days} of ${want.coverage.window_days} days)`);
        if (body.as_of !== want.coverage.window_end) bad.push(`${c.city}, ${c.state} ${months}: as_of ${body.as_of}, raw ${want.coverage.window_end}`);
        seen.set(body.confidence, (seen.get(body.confidence) ?? 0) + 1);
      }
    }
    expect(bad.slice(0, 40)).toEqual([]);
    // the bands the sample reaches: high (Philadelphia's and Denver's long windows), medium (capped by coverage), low
    expect([...seen.keys()].sort()).toEqual(['high', 'low', 'medium']);
    console.info(`confidences: ${JSON.stringify(Object.fromEntries(seen))}`);
  }, 600_000);
});
