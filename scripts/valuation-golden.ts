// `npx tsx scripts/valuation-golden.ts [--artifacts DIR] --out FILE [--check FILE]`: the answers of
// POST /v1/valuation/estimate to a fixed list of requests over a build, one JSON line per request ({input, answer}),
// through the module the server loads (live/valuation/endpoint.ts load(), with the build's place resolver and property
// record). For a change that must not move any answer (the loaded format, the index structures, speed): write the
// lines before it (--out before.jsonl), then after it (--check before.jsonl): exit 1 naming the first requests whose
// answers differ byte for byte.
// The requests (about 1,900 over the four markets of the shared data): addresses of the back-test's test slice (the
// last 20% of each market's sales by date, backtest.ts splitDays; every k-th, about 200 a market) as recorded, with the
// zip's city and state after them, with sqft, beds and baths sent, with a condition; parcel rows (subjects-<source>
// .json, about 60 a market); unknown addresses with and without sqft, and with a unit; zips that are not covered.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { currentBuildDir } from '../warehouse/build-folder.ts';
import { loadSettings } from '../warehouse/settings.ts';
import valuation, { ValuationEngine, type ValuationInput } from '../live/valuation/endpoint.ts';
import { splitDays } from '../live/valuation/backtest.ts';
import type { CompIndex } from '../live/valuation/comps.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const CONDITIONS = ['excellent', 'good', 'fair', 'poor'];

/** The fixed requests over a build's valuation folder (deterministic: the same build gives the same list). */
export function goldenRequests(engine: ValuationEngine, perMarket = 200, parcels = 60): ValuationInput[] {
  const out: ValuationInput[] = [];
  for (const source of Object.keys(engine.meta.sources).sort()) {
    const m = engine.market(source);
    const rowsOf = (ix: CompIndex, from: number): number[] => Array.from({ length: ix.n }, (_, i) => i).filter((i) => ix.day[i]! >= from && ix.data.key.at(i));
    const pick = (rows: number[], n: number): number[] => rows.filter((_, k) => k % Math.max(1, Math.floor(rows.length / n)) === 0).slice(0, n);
    const test = pick(rowsOf(m.comps, splitDays(m.comps).testStart), perMarket);
    test.forEach((i, k) => {
      const d = m.comps.data, zip = d.zips[d.zip[i]!]!, key = d.key.at(i)!, zm = engine.meta.zips[zip];
      const variant = k % 5;
      if (variant === 0) out.push({ zip, address: key });
      else if (variant === 1) out.push({ zip, address: zm ? `${key}, ${zm.city}, ${zm.state} ${zip}` : key, condition: CONDITIONS[k % 4]! });
      else if (variant === 2) out.push({ zip, address: key, sqft: Math.round(d.sqft[i]! * 1.1), beds: 3, baths: 2 });
      else if (variant === 3) out.push({ zip, address: key.toLowerCase() });
      else out.push({ zip, address: key, condition: 'fair', sqft: 1500 });
      // an unknown address of the same zip: the typical property, with and without sqft, and a unit
      if (k % 4 === 0) out.push({ zip, address: `${9000 + k} Nowhere Ln` });
      if (k % 4 === 1) out.push({ zip, address: `${9000 + k} Nowhere Ln`, sqft: 1200 + k });
      if (k % 8 === 2) out.push({ zip, address: `${9000 + k} Nowhere Ln Apt ${k}` });
    });
    for (const i of pick(rowsOf(m.subjects, -Infinity), parcels)) {
      const d = m.subjects.data;
      out.push({ zip: d.zips[d.zip[i]!]!, address: d.key.at(i)! });
    }
  }
  for (const zip of ['00000', '99999', '20001', '60614', '00601']) out.push({ zip, address: '1 Main St' });
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { artifacts: { type: 'string', default: path.join(REPO, 'artifacts') }, out: { type: 'string' }, check: { type: 'string' } } });
  const dir = currentBuildDir(path.resolve(values.artifacts!));
  if (!dir) throw new Error(`no published build in ${values.artifacts}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { build_id: string; as_of: string };
  const requests = goldenRequests(ValuationEngine.fromDir(path.join(dir, 'live', 'valuation'), manifest.as_of));
  const inst = await valuation.load({ dir, buildId: manifest.build_id, asOf: manifest.as_of, settings: loadSettings() });
  const lines: string[] = [];
  for (const input of requests) lines.push(JSON.stringify({ input, answer: await inst.handle(input) }));
  const ok = lines.filter((l) => l.includes('"ok":true')).length;
  process.stdout.write(`${lines.length} requests, ${ok} answered, ${lines.length - ok} not (404s)\n`);
  if (values.out) fs.writeFileSync(values.out, lines.join('\n') + '\n');
  if (values.check) {
    const before = fs.readFileSync(values.check, 'utf8').trimEnd().split('\n');
    const diff = lines.map((l, k) => (l === before[k] ? -1 : k)).filter((k) => k >= 0);
    if (before.length !== lines.length) process.stdout.write(`different request counts: ${before.length} before, ${lines.length} now\n`);
    for (const k of diff.slice(0, 5)) process.stdout.write(`differs: ${JSON.stringify(requests[k])}\n  before ${before[k]?.slice(0, 300)}\n  now    ${lines[k]!.slice(0, 300)}\n`);
    process.stdout.write(diff.length === 0 && before.length === lines.length ? 'identical: every answer byte for byte\n' : `${diff.length} answers differ\n`);
    process.exitCode = diff.length === 0 && before.length === lines.length ? 0 : 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('valuation-golden.ts')) await main();
