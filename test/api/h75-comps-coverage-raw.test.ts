// GET /v1/market/comps: the window and `coverage` (window_start, window_end, window_days, records_start, records_end,
// records_days) and `days_on_market` (median, source, redfin) against the RAW files (audit h75). Before, coverage was
// checked against raw files for Sacramento 95823 alone (market-comps-coverage.test.ts) and days on market for
// East Hampton 06414 (comps-redfin.test.ts). A seeded sample of 15 zips of each source with zips (King County,
// Sacramento, NYC, Philadelphia), sfr, condo and multi, months 3, 6, 12, 18 and 24, asked of a real server over the
// shared build; the oracle (oracle-raw-coverage.ts) reads the raw sales files and the Redfin zip snapshots by market.md
// "mart_comps": the window to the zip's latest arm's-length sale of any type, the days every file of its source covers
// with full volume (solid months, no hole), and the Redfin row that may stand for the window (its 90 days inside the
// window, a recorded type that describes the type, 5 or more homes sold), else no days on market: no public sales
// file here records a list date.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { schemaErrors } from '../helpers/server.ts';
import { rawCoverage, rawCoverageInputs, rawRedfinDom, type RawCoverageInputs } from '../helpers/oracle-raw-coverage.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 75_002;
const PER_SOURCE = 15;
const SOURCES = ['king_county', 'sacramento', 'nyc', 'philadelphia'] as const;
const TYPES = ['sfr', 'condo', 'multi'] as const;
const MONTHS = [3, 6, 12, 18, 24];

interface Comps { coverage: Record<string, unknown>; days_on_market: { median: number | null; source: string | null; redfin: Record<string, unknown> | null }; as_of: string }

const api = serveSharedBuild('builder', 100_000);
let raw: RawCoverageInputs;
const sample = new Map<string, string[]>();

beforeAll(async () => {
  raw = await rawCoverageInputs();
  const draw = rng(SEED);
  for (const src of SOURCES) {
    const pool = [...raw.zipEnd.keys()].filter((k) => k.startsWith(`${src}|`)).map((k) => k.split('|')[1]!).filter((z) => /^\d{5}$/.test(z)).sort();
    const picked: string[] = [];
    while (picked.length < PER_SOURCE && pool.length) picked.push(pool.splice(Math.floor(draw() * pool.length), 1)[0]!);
    sample.set(src, picked.sort());
  }
}, 300_000);

describe(`seeded sample ${SEED}: comps coverage and days on market against the raw files`, () => {
  test('the sample: 15 zips of each of the four sources', () => {
    expect([...sample.keys()]).toEqual([...SOURCES]);
    for (const zs of sample.values()) expect(zs).toHaveLength(PER_SOURCE);
    console.info(`sample ${SEED}: ${JSON.stringify(Object.fromEntries(sample))}`);
  });

  test('every sampled zip, type and window: coverage equal to the raw files\', days on market the standing Redfin row\'s or null', async () => {
    const bad: string[] = [];
    let answers = 0, partial = 0, redfinRows = 0;
    for (const src of SOURCES) {
      for (const zip of sample.get(src)!) {
        redfinRows += raw.redfin.get(zip)?.length ?? 0;
        for (const type of TYPES) {
          for (const months of MONTHS) {
            const res = await api.get(`/v1/market/comps?zip=${zip}&property_type=${type}&months=${months}`);
            if (res.status !== 200) { bad.push(`${zip} ${type} ${months}: ${res.status}`); continue; }
            const body = (await res.json()) as Comps;
            const errors = schemaErrors('CompsSummary', body);
            if (errors.length) bad.push(`${zip} ${type} ${months}: ${errors.join('; ')}`);
            const want = rawCoverage(raw, src, zip, months)!;
            if (JSON.stringify(body.coverage) !== JSON.stringify(want)) bad.push(`${zip} ${type} ${months}: coverage ${JSON.stringify(body.coverage)}, raw ${JSON.stringify(want)}`);
            if (want.records_days < want.window_days) partial++;
            const row = rawRedfinDom(raw, zip, type, want);
            const dom = body.days_on_market;
            if (row === null ? dom.median !== null || dom.source !== null || dom.redfin !== null
              : dom.median !== row.median_dom || dom.source !== 'redfin' || dom.redfin?.['period_end'] !== row.period_end) {
              bad.push(`${zip} ${type} ${months}: days_on_market ${JSON.stringify(dom)}, raw ${JSON.stringify(row)}`);
            }
            answers++;
          }
        }
      }
    }
    expect(bad.slice(0, 40)).toEqual([]);
    expect(answers).toBe(SOURCES.length * PER_SOURCE * TYPES.length * MONTHS.length);
    expect(partial).toBeGreaterThan(200); // windows the files cover in part: Sacramento's week, Philadelphia's roll, NYC's gap
    expect(redfinRows).toBeGreaterThan(100); // the zips have Redfin rows; none stands for a window ending by 2024-02
    console.info(`${answers} comps answers; ${partial} windows covered in part; ${redfinRows} Redfin rows of the zips, none inside a window`);
  }, 600_000);
});
