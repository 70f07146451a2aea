// What the location engine of a build keeps (live/location/endpoint.ts LocationEngine.fromDir): its H3 cell lists in
// typed arrays (cell-lists.ts), zips.json's rows in columns (zip-locator.ts) and the polygons' pairs in one Float64Array
// (flat-polygons.ts), not a Map of arrays, an array of eight per zip and an array per pair (31.9 MB of heap and buffers
// for the shared build); the cell lists, rows and polygons read back equal the files'.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { retainedMb } from '../../helpers/retained.ts';
import { LocationEngine } from '../../../live/location/endpoint.ts';
import { CellLists } from '../../../live/location/cell-lists.ts';
import { FlatPolygons } from '../../../live/location/flat-polygons.ts';
import type { FloodData, ZctaData } from '../../../live/location/data.ts';

const dir = path.join(buildDir(), 'live', 'location');
const read = <T,>(f: string): T => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as T;

describe('location engine memory', () => {
  it('keeps under 15 MB for the shared build', () => {
    const { value, mb } = retainedMb(() => LocationEngine.fromDir(dir));
    expect(value.zips.position('98103')).toBeGreaterThan(0);
    expect(mb).toBeLessThan(15);
  });

  it('gives every cell\'s list as the file writes it, and no list for a cell not in it', () => {
    for (const f of ['flood.json', 'superfund.json', 'zcta.json']) {
      const cells = read<{ cells: Record<string, number[]> }>(f).cells;
      const lists = new CellLists(cells);
      expect(Object.keys(cells).length).toBeGreaterThan(100);
      for (const [cell, list] of Object.entries(cells)) expect([...lists.get(cell)!], `${f} ${cell}`).toEqual(list);
      expect(lists.get('8f2830828052d25')).toBeUndefined();
      expect(lists.get('not a cell')).toBeUndefined();
      expect(lists.get('')).toBeUndefined();
    }
  });

  it('reads every zip row back as zips.json writes it', () => {
    const rows = read<{ zips: unknown[] }>('zips.json').zips;
    const engine = LocationEngine.fromDir(dir);
    rows.forEach((row, i) => expect(engine.zips.row(i)).toEqual(row));
  });

  it('gives every ZCTA\'s and flood polygon\'s rings back as the files write them', () => {
    const zctas = read<ZctaData>('zcta.json').zctas;
    const flat = new FlatPolygons(zctas.map((z) => z.polygons));
    expect(zctas.length).toBeGreaterThan(100);
    zctas.forEach((z, i) => expect(flat.polygons(i), z.zip).toEqual(z.polygons));
    const flood = read<FloodData>('flood.json').polygons;
    const shapes = new FlatPolygons(flood.map((p) => [p.rings]));
    flood.forEach((p, i) => expect(shapes.polygons(i)).toEqual([p.rings]));
  });
});
