// `tsx scripts/generate-synthetic.ts --rows 1000000 --out /tmp/synth --seed 1 [--data ../shared/data]
//   [--parcels N] [--permits N] [--distress N] [--bad-rate 0]`
// A deterministic (seeded) generator of synthetic county records in the canonical format (DESIGN.md "canonical
// format"): <out>/canonical/{sales,parcels,permits,distress}.csv, so `reii build --sources <out>` loads them as
// the operator's records. --rows is the number of sales; parcels default rows/2, permits rows/5, distress rows/50.
//
// Distributions follow the real sources in ../shared/data:
// - geography: every ZCTA of the 50 states + DC from us-zip-reference (primary city, state, centroid); with
//   rows >= ZCTAs each ZCTA gets at least one sale, the rest weighted by ACS housing units (census-acs2023-population);
// - price per sqft per zip: the Redfin zip snapshot median_ppsf (latest capture), else Zillow ZHVI / 1,750 sqft,
//   else the state median; within a zip lognormal (sigma 0.25, the spread of King County ppsf within a zip);
// - sizes: living area lognormal (median 1,900 sqft, sigma 0.42, King County), beds/baths from the size;
// - types: sfr 64%, condo 18%, multi 10%, land 5%, commercial 3% (the NYC/Philadelphia/Connecticut mix);
// - dates: 36 months ending 2025-09-30, with the spring/summer peak of the King County sales;
// - list data on 70% of sales (days on market lognormal median 24, sale-to-list ~ N(0.99, 0.03));
// - buyers: 14% entities (Denver's share of LLC/INC/TRUST grantees), 3% of sales are investor flip pairs (bought
//   ~25% under market, resold 60-330 days later).
// Streaming writes with back-pressure: memory stays flat at any --rows. Same arguments -> byte-identical files.
// --bad-rate r makes that share of rows invalid on purpose (bad dates, prices, types, zips) to exercise rejects.
// This file is the command line; the generator is in scripts/synthetic/: generate.ts (the tables in the order they are
// written), one file per table (sales.ts, parcels.ts, permits.ts, distress.ts) and what they draw on (zips.ts,
// records.ts, vocabulary.ts, sampler.ts, random.ts, csv-out.ts).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './synthetic/generate.ts';

export { rng } from './rng.ts';
export { generate, type GenerateOptions, type GenerateResult } from './synthetic/generate.ts';
export { loadZips, type ZipInfo } from './synthetic/zips.ts';

// ---------------------------------------------------------------- command line

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '100000' }, out: { type: 'string' }, seed: { type: 'string', default: '1' },
      data: { type: 'string' }, parcels: { type: 'string' }, permits: { type: 'string' }, distress: { type: 'string' },
      'bad-rate': { type: 'string', default: '0' },
    },
  });
  if (!values.out) throw new Error('--out DIR is required (the files go to DIR/canonical/)');
  const rows = Number(values.rows);
  if (!Number.isInteger(rows) || rows < 1) throw new Error('--rows must be a positive integer');
  const data = path.resolve(values.data ?? process.env['REII_SOURCES'] ?? path.join(import.meta.dirname, '..', '..', 'shared', 'data'));
  const num = (v: string | undefined): number | undefined => (v == null ? undefined : Number(v));
  const started = performance.now();
  const result = await generate({
    rows, out: path.resolve(values.out), seed: Number(values.seed), data,
    parcels: num(values.parcels), permits: num(values.permits), distress: num(values.distress), badRate: Number(values['bad-rate']),
    log: (m) => process.stderr.write(m + '\n'),
  });
  process.stdout.write(JSON.stringify({ ...result, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) }, null, 2) + '\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((err: unknown) => { process.stderr.write(`generate-synthetic: ${(err as Error).message}\n`); process.exit(1); });
}
