// What the place resolver of a build keeps (live/places/resolver.ts): the server loads it once per build for the geo
// lookup, research, autocomplete, property and the valuation. The country's ~32,000 cities kept a typed array of letter
// counts and a one-city list per key each (17.7 MB of heap); now one array of counts and a city per key (~8 MB).
import { describe, expect, it } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { retainedMb } from '../../helpers/retained.ts';
import { loadResolver } from '../../../live/places/endpoint.ts';

describe('place resolver memory', () => {
  it('keeps under 10 MB of heap for the shared build\'s cities', () => {
    const { value, mb } = retainedMb(() => loadResolver(buildDir()));
    expect(value?.citiesOf('WA').length).toBeGreaterThan(200);
    expect(mb).toBeLessThan(10);
  });
});
