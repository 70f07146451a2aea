// The property engine keeps the zip files read last (up to 256) as columns (live/property/zip-table.ts): the entries a
// lookup answers are the file's own, and a full cache of the build's largest zips keeps a few MB of heap, not the ~40 MB
// that one array of four strings per property kept (the valuation bench's server grew by it under load).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { retainedMb } from '../../helpers/retained.ts';
import { loadEngine } from '../../../live/property/endpoint.ts';
import { ZipTable } from '../../../live/property/zip-table.ts';
import type { ZipEntry } from '../../../live/property/layout.ts';

const zipsDir = path.join(buildDir(), 'live', 'property', 'zips');
const files = fs.readdirSync(zipsDir).filter((f) => f.endsWith('.json'));

describe('property zip table', () => {
  it('answers every entry of every zip file as the file writes it, and a street line\'s entries in file order', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const f of files) {
      const text = fs.readFileSync(path.join(zipsDir, f), 'utf8');
      const raw = JSON.parse(text) as ZipEntry[];
      const table = ZipTable.parse(text);
      expect(JSON.stringify(table.all())).toBe(text);
      for (const street of new Set(raw.filter((_, i) => i % 7 === 0).map((e) => e[0]))) {
        expect(table.withStreet(street)).toEqual(raw.filter((e) => e[0] === street));
      }
      expect(table.withStreet(`${raw[0]![0]} NOWHERE`)).toEqual([]);
    }
  });

  it('keeps the 256 largest zips in under 10 MB of heap (arrays of strings: ~40 MB)', () => {
    const largest = files.map((f) => ({ zip: f.slice(0, 5), bytes: fs.statSync(path.join(zipsDir, f)).size }))
      .sort((a, b) => b.bytes - a.bytes).slice(0, 256);
    const engine = loadEngine({ dir: buildDir(), buildId: 'zip-table-test', asOf: '2026-01-01' })!;
    const { mb } = retainedMb(() => { for (const z of largest) expect(engine.zip(z.zip)).not.toBeNull(); });
    expect(mb).toBeLessThan(10);
  });
});
