// The additive fields of the market and location answers are written in their shards by the build (pipelines/shards/
// comps.sql, rehab.sql, investor.sql, trends.sql, location-zip.sql), so each route answers its shard file as stored:
// `source` (the market's sales source as the build's manifest names it, from mart_market_source; rehab and investor:
// the sources of the kinds of record each counts, mart_answer_source), the investor note's
// flip clause, and `flood_map_loaded`. Read from the shard files on disk of the shared real build (before: the server
// added them per request, api/shard-augment.ts, and the files carried none of them).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildDir, readShard } from '../helpers/build.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import type { SalesCoverFile } from '../../live/research/sales-cover-build.ts';
import { slug } from '../../warehouse/layout.ts';

type Body = Record<string, unknown>;
const FLIP = "flip_velocity_days is the median days from an investor's purchase deed to the property's resale deed, not to its re-listing as the spec defines it: no source of the build records listing dates, so the resale stands for the re-list (a flip: an investor purchase resold 1 to 365 days later)";

/** The manifest's name of a source: {id, name: its title, vintage}. */
function named(id: string): { id: string; name: string; vintage: string | null } {
  const manifest = JSON.parse(fs.readFileSync(path.join(buildDir(), 'manifest.json'), 'utf8')) as { sources: { id: string; title: string; vintage: string | null }[] };
  const s = manifest.sources.find((x) => x.id === id)!;
  return { id: s.id, name: s.title, vintage: s.vintage };
}

/** Every shard file of a family folder (market/rehab, ...), with its body. */
function shardsUnder(rel: string): { file: string; body: Body }[] {
  const root = path.join(buildDir(), 'shards', rel);
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.json')).sort()
    .map((f) => ({ file: `${rel}/${f}`, body: JSON.parse(fs.readFileSync(path.join(root, f), 'utf8')) as Body }));
}

const lastKey = (b: Body): string => Object.keys(b).at(-1)!;

describe('the market shards carry their source', () => {
  test("98103 and Seattle: the King County house-sales file's source, last in comps, rehab, investor and trends; none for 37206 (permits alone)", () => {
    // raw: the file's zipcode column holds 98103 (no city column: Seattle is the county's city of its zips)
    expect(fs.readdirSync(path.join(SHARED_DATA, 'king-county-wa-house-sales'))).toContain('kc_house_data.csv.gz');
    const kc = named('king_county');
    expect(kc).toEqual({ id: 'king_county', name: 'King County WA house sales 2014-2015', vintage: '2014-05..2015-05' });
    for (const rel of ['market/comps/98103/sfr-12.json', 'market/rehab/98103/12.json', 'market/investor/WA/seattle/12.json',
      'market/trends/zip/98103/sfr.json', 'market/trends/city/WA/seattle/sfr.json']) {
      const body = readShard<Body>(rel);
      // rehab and investor also say which kind of record each source gave (test/api/market-record-sources.test.ts)
      expect(body['source'], rel).toEqual(/rehab|investor/.test(rel) ? { ...kc, kinds: [{ kind: 'sales', id: kc.id, vintage: kc.vintage }] } : kc);
      expect(lastKey(body), rel).toBe('source');
    }
    // a rehab score resting on permits alone (Nashville 37206): its permit source (before: no source key)
    const permitsOnly = readShard<Body>('market/rehab/37206/12.json');
    expect(permitsOnly['rehab_momentum_score']).not.toBeNull();
    expect((permitsOnly['source'] as { id: string }).id).toBe('nashville');
  });

  test("every trends shard: its source is its market's in sales-cover.json, as the manifest names it, absent where none; every rehab and investor shard: the sources of the kinds it counts", () => {
    const cover = JSON.parse(fs.readFileSync(path.join(buildDir(), 'live', 'research', 'sales-cover.json'), 'utf8')) as SalesCoverFile;
    const want = (b: Body): unknown => {
      const k = typeof b['zip_code'] === 'string' ? `zip|${b['zip_code']}` : `city|${String(b['state']).toUpperCase()}|${slug(String(b['city']))}`;
      const ids = cover[k]?.sources ?? [];
      if (ids.length === 0) return undefined;
      const n = ids.map(named);
      const source = { id: ids.join('+'), name: n.map((s) => s.name).join('; '), vintage: n.every((s) => s.vintage === null) ? null : n.map((s) => s.vintage ?? '?').join('; ') };
      expect(cover[k]!.source, k).toEqual(source); // the value the flagged-only 404 names (api/market-source.ts)
      return source;
    };
    // rehab and investor: a kind is named exactly where the answer counts it (counts.sales / counts.rehab_permits of a
    // rehab score; the city's arm's-length sales and distressed_pipeline_count of an overview), each its source's
    const kindsOf = (b: Body, file: string): string[] => file.startsWith('market/rehab')
      ? [...((b['counts'] as Body)['sales'] !== null ? ['sales'] : []), ...((b['counts'] as Body)['rehab_permits'] !== null ? ['permits'] : [])]
      : [...((cover[`city|${String(b['state']).toUpperCase()}|${slug(String(b['city']))}`]?.arms_length ?? 0) > 0 ? ['sales'] : []),
         ...(b['distressed_pipeline_count'] !== null ? ['distress'] : [])];
    let counted = 0;
    for (const rel of ['market/rehab', 'market/investor']) {
      for (const { file, body } of shardsUnder(rel)) {
        const kinds = kindsOf(body, file);
        if (kinds.length === 0) { expect('source' in body, file).toBe(false); continue; }
        const src = body['source'] as { id: string; name: string; vintage: string | null; kinds: { kind: string; id: string; vintage: string | null }[] };
        expect(src.kinds.map((k) => k.kind), file).toEqual(kinds);
        const ids = [...new Set(src.kinds.map((k) => k.id))].sort();
        const n = ids.map(named);
        expect({ id: src.id, name: src.name }, file).toEqual({ id: ids.join('+'), name: n.map((x) => x.name).join('; ') });
        for (const k of src.kinds) expect(k.vintage, file).toBe(named(k.id).vintage); // no operator source in this build
        expect(lastKey(body), file).toBe('source');
        counted++;
      }
    }
    expect(counted).toBeGreaterThan(10000);
    let sourced = 0;
    for (const rel of ['market/trends']) {
      for (const { file, body } of shardsUnder(rel)) {
        const w = want(body);
        if (w === undefined) { expect('source' in body, file).toBe(false); continue; }
        expect(body['source'], file).toEqual(w);
        expect(lastKey(body), file).toBe('source');
        sourced++;
      }
    }
    expect(sourced).toBeGreaterThan(1000);
  });
});

describe('the investor note says what flip_velocity_days measures', () => {
  test('Denver 12 months: the clause ends the note; every shard: there exactly where flip_velocity_days is given', () => {
    const denver = readShard<Body>('market/investor/CO/denver/12.json');
    expect(denver['flip_velocity_days']).not.toBeNull();
    expect(String(denver['note']).endsWith(`; ${FLIP}`)).toBe(true);
    for (const { file, body } of shardsUnder('market/investor')) {
      expect(String(body['note'] ?? '').includes(FLIP), file).toBe(body['flip_velocity_days'] !== null);
    }
  });
});

describe('the location shards carry flood_map_loaded', () => {
  test('33139, 98103, 11201 (no loaded FEMA map): false; Cambridge 02139 (the Middlesex map): true; every zip: false exactly for the no-map zone D', () => {
    for (const zip of ['33139', '98103', '11201']) expect(readShard<Body>(`location/zip/${zip}.json`), zip).toMatchObject({ flood_zone: 'D', flood_map_loaded: false });
    expect(readShard<Body>('location/zip/02139.json')['flood_map_loaded']).toBe(true);
    let unmapped = 0;
    for (const { file, body } of shardsUnder('location/zip')) {
      expect(lastKey(body), file).toBe('flood_map_loaded');
      const noMap = String(body['flood_risk_notes'] ?? '').startsWith('Zone D (undetermined)');
      expect(body['flood_map_loaded'], file).toBe(!noMap);
      if (noMap) unmapped++;
    }
    expect(unmapped).toBeGreaterThan(1000);
  });
});
