// `npm run eval:avm -- --sources DIR` on a real market in the canonical format (issue 24, the unseen market): Sacramento's
// sales converted by scripts/canonical-sales.ts into a temp folder, evaluated through the real CLI (a build of the
// folder's canonical sales beside the geography folders only). Oracle: the raw Sacramento file, read here with its
// own parser, and the comp rules of warehouse/docs/valuation.md "Data" (arm's-length: price >= $10,000 and one copy of
// a sale recorded twice; residential; sqft > 0; price per sqft 10..10,000).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { SACRAMENTO_FILE, writeCanonicalSales } from '../../../scripts/canonical-sales.ts';
import { loadSettings } from '../../../warehouse/settings.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-eval-sources-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The raw file's rows as objects (LF lines, no quoted values in this file: asserted). */
function rawSacramento(): Record<string, string>[] {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(loadSettings().sources, SACRAMENTO_FILE))).toString('utf8');
  expect(text.includes('"')).toBe(false);
  const [head, ...lines] = text.split('\n').filter((l) => l.trim() !== '');
  const cols = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, k) => [cols[k]!, v.trim()])));
}

describe('eval:avm --sources on a real market in the canonical format', () => {
  it('converts every typed Sacramento sale, and the evaluation holds exactly the comps the rules keep', async () => {
    const raw = rawSacramento();
    const typed = raw.filter((r) => ['Residential', 'Condo', 'Multi-Family'].includes(r['type']!));
    const dir = path.join(tmp, 'sacramento');
    const conv = await writeCanonicalSales('sacramento', dir);
    expect(conv.rows).toBe(typed.length);
    expect(conv.skipped).toBe(raw.length - typed.length);
    const written = fs.readFileSync(conv.file, 'utf8').trim().split('\n');
    expect(written.length).toBe(typed.length + 1);

    // the comps the build should keep, from the raw file
    const seen = new Set<string>();
    const near = new Map<string, number[]>(); // the prices of one property, date and facts: a near copy is within 0.5%
    const comps = typed.filter((r) => {
      const price = Number(r['price']), sqft = Number(r['sq__ft']);
      if (!(price >= 10_000 && sqft > 0 && price / sqft >= 10 && price / sqft <= 10_000 && /^\d{5}$/.test(r['zip']!))) return false;
      const place = [r['street']!.toUpperCase().replace(/\s+/g, ' '), r['zip'], r['sale_date_iso']].join('|');
      const key = [place, price].join('|');
      if (seen.has(key)) return false; // a second copy of the same sale
      seen.add(key);
      const facts = [place, r['type'], r['beds'], r['baths'], sqft].join('|');
      const prices = near.get(facts) ?? [];
      if (prices.some((p) => Math.abs(p - price) <= 0.005 * Math.max(p, price))) return false; // one sale keyed twice
      near.set(facts, [...prices, price]);
      return true;
    });
    expect(comps.length).toBeGreaterThan(700);
    const days = comps.map((r) => r['sale_date_iso']!).sort();
    const testStart = days[Math.floor(days.length * 0.8)]!;

    const out = path.join(tmp, 'eval.json');
    execFileSync(path.join(REPO, 'node_modules', '.bin', 'tsx'), [path.join(REPO, 'scripts', 'eval-avm.ts'), '--sources', path.dirname(conv.file), '--min-test', '1', '--json', out],
      { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const r = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      splits: Record<string, { test_start: string; subjects: number }>;
      scorecard: { sources: { source: string; test_sales: number }[]; accuracy: { source: string; subject: string; confidence: string; n: number; mdape: number; coverage_80: number | null }[] };
    };
    expect(Object.keys(r.splits)).toEqual(['canonical']);
    expect(r.splits['canonical']!.subjects).toBe(comps.length);
    expect(r.splits['canonical']!.test_start).toBe(testStart);
    const inTest = comps.filter((c) => c['sale_date_iso']! >= testStart).length;
    const tested = r.scorecard.sources.find((s) => s.source === 'canonical')!.test_sales;
    // every test sale is valued unless no earlier comp of its type is found anywhere in its zip (a handful)
    expect(tested).toBeLessThanOrEqual(inTest);
    expect(tested).toBeGreaterThanOrEqual(inTest * 0.95);
    const all = r.scorecard.accuracy.find((a) => a.source === 'canonical' && a.subject === 'record' && a.confidence === 'all')!;
    expect(all.n).toBe(tested);
    expect(all.mdape).toBeGreaterThan(0);
    expect(all.coverage_80).not.toBeNull();
  }, 1_200_000); // a build of the market and its back-test: about 20 s alone, minutes (10 at a load of 25) beside other work on two cores
});
