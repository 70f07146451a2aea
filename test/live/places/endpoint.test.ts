// A build's place resolver is made once for the modules that read it (places, research): the same object for the
// same build folder, a new one for another build.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadResolver } from '../../../live/places/endpoint.ts';
import type { PlacesFile } from '../../../live/places/resolver.ts';

function buildWith(cities: PlacesFile['cities']): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-places-'));
  fs.mkdirSync(path.join(dir, 'live', 'places'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'live', 'places', 'places.json'), JSON.stringify({ format: 1, build_id: path.basename(dir), cities } satisfies PlacesFile));
  return dir;
}

test('one resolver per build folder, shared by the modules that load it; another build gets its own', () => {
  const a = buildWith([['Seattle', 'WA', 750_000, []]]);
  const b = buildWith([['Tacoma', 'WA', 220_000, []]]);
  const first = loadResolver(a);
  expect(first?.resolveCity('WA', 'seattle')).toMatchObject({ ok: true, city: 'Seattle' });
  expect(loadResolver(a)).toBe(first);
  const other = loadResolver(b);
  expect(other).not.toBe(first);
  expect(other?.resolveCity('WA', 'Tacoma')).toMatchObject({ ok: true, city: 'Tacoma' });
  expect(other?.resolveCity('WA', 'Seattle')).toMatchObject({ ok: false });
  expect(loadResolver(fs.mkdtempSync(path.join(os.tmpdir(), 'reii-places-none-')))).toBeNull(); // no place table
});
