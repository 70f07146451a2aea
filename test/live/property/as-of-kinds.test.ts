// A record's as_of is the newest day of its source's files of the record's own kinds (warehouse/docs/property.md
// "GET /v1/property"): one canonical folder holds distress.csv to 2016-06-03 beside permits.csv to 2024-09-19, and a
// property of filings only read 2024-09-19 (review 22). The engine over record files written in the build's format
// (live/property/layout.ts), with the per-kind days the build's meta gives (live/property/build.ts source_kind_as_of).
import { describe, expect, test } from 'vitest';
import { PropertyEngine } from '../../../live/property/engine.ts';
import { encodeRecordFile, recordFile, type StoredRecord, type StoredRef } from '../../../live/property/layout.ts';

const body = (id: string): StoredRecord['body'] => ({ property_id: id, parcel_id: null, address: null, unit: null, city: null, state: 'KY', zip: '40211',
  county: null, lat: null, lng: null, property_type: null, beds: null, baths: null, sqft: null, lot_sqft: null, year_built: null, owner_type: null,
  absentee_owner: null, source: 'canonical', sales: [], permits: [], distress: [] });

describe('a record is as current as its own kinds of record', () => {
  test('filings only: the distress file\'s last day; a parcel with sales and a permit: the later of theirs; no dated kind: the source\'s', () => {
    const refs: StoredRef[] = [['canonical', 'distress', 'canonical/distress.csv', null], ['canonical', 'permits', 'canonical/permits.csv', null],
      ['canonical', 'sales', 'canonical/sales.csv', null], ['canonical', 'parcels', 'canonical/parcels.csv', null]];
    const filings: StoredRecord = { body: { ...body('aaa0000000000001'), distress: [{ date: '2014-02-04', kind: 'lien_foreclosure', amount: null, docket_type: null, status: null, outcome: null, status_date: null, sale_date: null, sale_price: null }] },
      fields: {}, sales: [], permits: [], distress: [['canonical:d1', [0, 2, '2014-02-04']]] };
    const parcel: StoredRecord = { body: { ...body('aaa0000000000002'),
      sales: [{ date: '2024-03-01', price: 320000, price_per_sqft: null, buyer: null, seller: null, arms_length: true, portfolio: false, investor_buyer: null, flip_leg: false }],
      permits: [{ date: '2024-03-08', type: 'new', description: null, valuation: 225000 }] },
      fields: { address: ['929 CAHAL AVE', [3, 2, null], []] }, sales: [['s1', [2, 3, '2024-03-01']]], permits: [['canonical:T2024021799', [1, 4, '2024-03-08']]], distress: [] };
    const bare: StoredRecord = { body: body('aaa0000000000003'), fields: { address: ['1 MAIN ST', [3, 3, null], []] }, sales: [], permits: [], distress: [] };
    const file = encodeRecordFile(refs, [['aaa0000000000001', filings], ['aaa0000000000002', parcel], ['aaa0000000000003', bare]]);
    const engine = new PropertyEngine((rel) => (rel === recordFile('aaa0000000000001') ? file : null), {
      buildId: 'b', asOf: '2026-11-21', sourceAsOf: { canonical: '2024-09-19' },
      sourceKindAsOf: { canonical: { distress: '2016-06-03', permits: '2024-09-19', sales: '2024-06-28' } } });
    const asOf = (id: string): unknown => { const a = engine.answer({ property_id: id }); return a.ok ? (a.body as Record<string, unknown>)['as_of'] : a; };
    expect(asOf('aaa0000000000001')).toBe('2016-06-03'); // before: 2024-09-19, the permits' end
    expect(asOf('aaa0000000000002')).toBe('2024-09-19');
    expect(asOf('aaa0000000000003')).toBe('2024-09-19'); // parcels.csv dates no row: the source's newest record
  });
});
