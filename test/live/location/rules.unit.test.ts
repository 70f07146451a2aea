// Location rules (live/location/rules.ts), pure: zone labels, the environmental score and its re-weighting, declared
// flood-map areas. The rules are documented in warehouse/docs/location.md.
import { describe, expect, it } from 'vitest';
import {
  classifyZone, inFloodArea, MAPPED_MINIMAL, parseFloodArea, UNMAPPED, type FloodArea,
} from '../../../live/location/rules.ts';
import { environmentalScore, scoreBasisNote } from '../../../live/location/score.ts';

describe('location rules', () => {
  it('labels zones as documented and never maps an unknown value to a zone', () => {
    expect(classifyZone('VE', null, 'T')!.label).toBe('Very High');
    expect(classifyZone('V', null, null)!.label).toBe('Very High');
    for (const z of ['A', 'AE', 'AO', 'AH', 'A99', 'AR']) expect(classifyZone(z, null, 'T')!.label).toBe('High');
    expect(classifyZone('Zone AE', 'FLOODWAY', 'T')!.zone).toBe('AE');
    expect(classifyZone('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', 'F')).toMatchObject({ zone: 'X', label: 'Moderate', key: 'X-shaded' });
    expect(classifyZone('X', 'AREA OF MINIMAL FLOOD HAZARD', 'F')).toMatchObject({ zone: 'X', label: 'Minimal', key: 'X-minimal' });
    expect(classifyZone('x', 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE', 'F')!.label).toBe('Low');
    expect(classifyZone('X', null, null)!.label).toBe('Minimal');
    expect(classifyZone('AREA NOT INCLUDED', null, 'F')).toBeNull();
    expect(classifyZone('', null, null)).toBeNull();
    expect(classifyZone('ZZ', null, null)).toBeNull();
  });

  it('scores 0-100: flood 45%, Superfund 30%, NRI 25% (renormalised without NRI)', () => {
    const ae = classifyZone('AE', null, 'T')!;
    expect(environmentalScore(ae, 0, 0)).toBe(36);
    expect(environmentalScore(ae, 1, 40)).toBe(Math.round(0.45 * 80 + 0.3 * 50 + 0.25 * 40));
    expect(environmentalScore(classifyZone('VE', null, 'T')!, 5, 100)).toBe(100);
    expect(environmentalScore(MAPPED_MINIMAL, 0, 0)).toBe(0);
    expect(environmentalScore(MAPPED_MINIMAL, 1, null)).toBe(Math.round((0.3 * 50) / 0.75));
    // FEMA-mapped zone D (undetermined) keeps its 35 points
    expect(environmentalScore(classifyZone('D', null, 'F')!, 0, 20)).toBe(Math.round(0.45 * 35 + 0.25 * 20));
  });

  it('leaves flood out of the score where no flood map exists and re-weights the rest', () => {
    // no map: superfund 0.30 and NRI 0.25, divided by 0.55; without NRI either, the Superfund points alone
    expect(environmentalScore(UNMAPPED, 1, 40)).toBe(Math.round((0.3 * 50 + 0.25 * 40) / 0.55));
    expect(environmentalScore(UNMAPPED, 0, 60)).toBe(Math.round((0.25 * 60) / 0.55));
    expect(environmentalScore(UNMAPPED, 0, null)).toBe(0);
    expect(environmentalScore(UNMAPPED, 2, null)).toBe(75);
    // no invented flood points: with no Superfund site and an NRI score of 0 an unmapped place scores 0, like mapped X
    expect(environmentalScore(UNMAPPED, 0, 0)).toBe(0);
    expect(environmentalScore(UNMAPPED, 0, 0)).toBe(environmentalScore(MAPPED_MINIMAL, 0, 0));
  });

  it('says so when the score rests on Superfund proximity alone (no flood map, no NRI county score)', () => {
    expect(scoreBasisNote(UNMAPPED, null)).toMatch(/rests on Superfund proximity alone.*not that the environmental risk is low/);
    expect(scoreBasisNote(UNMAPPED, Number.NaN)).toMatch(/Superfund proximity alone/);
    expect(scoreBasisNote(UNMAPPED, 0)).toBeNull(); // an NRI score of 0 is a score
    expect(scoreBasisNote(MAPPED_MINIMAL, null)).toBeNull();
    expect(scoreBasisNote(classifyZone('D', null, 'F')!, null)).toBeNull(); // FEMA's own zone D is mapped
  });

  it('parses declared flood-map areas and rejects malformed ones with a reason', () => {
    expect(parseFloodArea({ counties: ['39013'] })).toEqual({ label: 'county 39013', counties: ['39013'], places: [] });
    expect(parseFloodArea({ label: 'Cambridge', places: ['Cambridge, ma'] })).toEqual({ label: 'Cambridge', counties: [], places: [{ city: 'Cambridge', state: 'MA' }] });
    expect(parseFloodArea({ places: [{ city: 'Cambridge', state: 'MA' }] })).toMatchObject({ places: [{ city: 'Cambridge', state: 'MA' }] });
    expect(parseFloodArea({})).toMatch(/no county and no place/);
    expect(parseFloodArea({ counties: ['3901'] })).toMatch(/not a 5-digit FIPS/);
    expect(parseFloodArea({ places: ['Cambridge'] })).toMatch(/needs a city and a 2-letter state/);
    expect(parseFloodArea([1])).toMatch(/not a JSON object/);
    const area = parseFloodArea({ counties: ['39013'], places: [{ city: 'Cambridge', state: 'MA' }] }) as FloodArea;
    expect(inFloodArea(area, { city: 'CAMBRIDGE', state: 'MA', county: '25017' })).toBe(true);
    expect(inFloodArea(area, { city: 'Somerville', state: 'MA', county: '25017' })).toBe(false); // same county, other city
    expect(inFloodArea(area, { city: 'Cambridge', state: 'OH', county: '39059' })).toBe(false);
    expect(inFloodArea(area, { city: 'Bridgeport', state: 'OH', county: '39013' })).toBe(true);
    expect(inFloodArea(null, { city: 'Cambridge', state: 'MA', county: null })).toBe(false);
  });
});
