// Research names where a comps answer's days on market comes from when it is a Redfin zip snapshot's (the comps'
// days_on_market.source and .redfin, pipelines/shards/comps.sql; warehouse/docs/research.md "List-to-sale ratio"):
// its type, its 90 days and its homes sold; nothing when the figure is the sales' own or absent.
import { describe, expect, it } from 'vitest';
import { domFrom } from '../../../live/research/dom-facts.ts';

describe('domFrom', () => {
  it('says the Redfin period, type and homes sold; nothing for the sales\' own figure or none', () => {
    const redfin = { property_type: 'All Residential', period_start: '2015-02-01', period_end: '2015-04-30', homes_sold: 30 };
    expect(domFrom({ days_on_market: { median: 9, source: 'redfin', redfin } }))
      .toBe(' (Redfin zip tracker, all residential sales of 2015-02-01 to 2015-04-30, 30 homes sold)');
    expect(domFrom({ days_on_market: { median: 9, source: 'redfin', redfin: { ...redfin, property_type: 'Condo/Co-op', homes_sold: 5 } } }))
      .toBe(' (Redfin zip tracker, Condo/Co-op sales of 2015-02-01 to 2015-04-30, 5 homes sold)');
    expect(domFrom({ days_on_market: { median: 50, source: 'sales', redfin: null } })).toBe('');
    expect(domFrom({ days_on_market: { median: null } })).toBe('');
  });
});
