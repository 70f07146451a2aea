// The trees' guard (live/valuation/estimate.ts treesRead, notes.ts treesNote): trees fitted on sales that all carry a
// source's assessor fields cannot value a record with none of them (review 28: Philadelphia's parcels without the
// roll's fields were valued 0.41 of their comps). Such a record is valued without the trees, and the answer says why.
import { describe, expect, it } from 'vitest';
import { GBM_BASE_FEATURES, treesRead } from '../../../live/valuation/estimate.ts';
import { treesNote } from '../../../live/valuation/notes.ts';
import type { ModelParams, Subject } from '../../../live/valuation/types.ts';

const params = (extra: string[], gbmShare = 0.4, featureless = 0): ModelParams => ({
  gbm: { features: [...GBM_BASE_FEATURES, ...extra], featureless_rows: featureless }, blend: { comps: 1 - gbmShare, hedonic: 0, gbm: gbmShare },
} as unknown as ModelParams);
const subject = (features: Record<string, number>, mode: Subject['mode'] = 'record'): Subject => ({
  zip: '19149', sqft: 1164, beds: 3, baths: 1, year: 1950, features, cond: 'good', type: 0, lat: 40.04, lng: -75.06, mode,
});

describe('the trees read a record only when it knows one of their assessor fields', () => {
  it('a record with none of the fields: no trees, and a note naming the fields and the share moved to the comps', () => {
    const p = params(['log_assessed', 'quality']);
    expect(treesRead(p, subject({}))).toBe(false);
    expect(treesRead(p, subject({ other: 1 }))).toBe(false);
    expect(treesNote(p, subject({}), null)).toBe('The boosted trees read this source\'s assessor fields (log_assessed, quality), none of which this record has: their 40% share of the blend went to the comps');
  });

  it('a record with one field, trees without assessor fields or fitted on rows without them, or no trees in the blend: the trees read it, no note', () => {
    expect(treesRead(params(['log_assessed', 'quality']), subject({ quality: 6 }))).toBe(true);
    // a back-test fold whose training rows include some whose roll values are dated after it (backtest.ts asOf)
    expect(treesRead(params(['log_assessed', 'quality'], 0.4, 37), subject({}))).toBe(true);
    expect(treesRead(params([]), subject({}))).toBe(true);
    expect(treesNote(params(['quality']), subject({ quality: 6 }), 12.1)).toBeNull();
    expect(treesNote(params(['quality'], 0), subject({}), null)).toBeNull();
    expect(treesNote(params(['quality']), subject({}, 'request'), null)).toBeNull(); // only a record is blended
  });
});
