// An address the property record finds whose record has no living area (no comp or parcel row of the valuation holds
// it): valued as the zip's typical property, as an address not recorded is, but said to be found, with its
// property_id, that its record has no living area, and which size was used and which subject mode's confidence applies
// (warehouse/docs/valuation.md "Subject"). Before, the note said it "matches no recorded property", which was false.
// The records are read from the raw files: the OPA sample (total_livable_area 0.0) and NYC's rolling sales (GROSS
// SQUARE FEET 0). Over the shared build, real server.
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

const api = serveSharedBuild('pro', 100_000);

interface Answer {
  estimated_value: number; value_low: number; value_high: number; confidence: string; notes: string[];
  subject: { matched: boolean; property_id: string | null; mode: string; facts: { name: string; value: number | string; source: string }[] };
}
const estimate = async (body: Record<string, unknown>): Promise<Answer> => {
  const r = await api.post('/v1/valuation/estimate', body);
  const b = await r.json() as Answer;
  expect(r.status, JSON.stringify(b).slice(0, 300)).toBe(200);
  return b;
};

const CASES = [
  {
    zip: '19133', address: '3028 N American St', raw: async () => rawQuery<{ area: string; kind: string }>(`select total_livable_area as area, category_code_description as kind
      from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)
      where upper(trim(location)) = '3028 N AMERICAN ST' and zip_code like '19133%'`),
    kind: 'SINGLE FAMILY',
  },
  {
    zip: '11230', address: '1101 Avenue N', raw: async () => rawQuery<{ area: string; kind: string }>(`select "GROSS SQUARE FEET" as area, "BUILDING CLASS CATEGORY" as kind
      from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)
      where trim("ADDRESS") = '1101 AVENUE N' and trim("ZIP CODE") = '11230'`),
    kind: '01 ONE FAMILY DWELLINGS',
  },
];

describe.each(CASES)('$address $zip: a recorded house with no living area', ({ zip, address, raw, kind }) => {
  it('the premise: the raw file records the house with no living area, and GET /v1/property finds it', async () => {
    const rows = await raw();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) { expect(r.kind.trim()).toBe(kind); expect(Number(r.area)).toBe(0); }
    const p = await api.get(`/v1/property?${new URLSearchParams({ zip, address })}`);
    expect(p.status).toBe(200);
    expect((await p.json() as { sqft: number | null }).sqft).toBeNull();
  });

  it('no sqft sent: found, no living area, the zip\'s median sqft used, typical mode (confidence low)', async () => {
    const { property_id: pid } = await (await api.get(`/v1/property?${new URLSearchParams({ zip, address })}`)).json() as { property_id: string };
    const a = await estimate({ zip, address });
    expect(a.notes.join(' ')).not.toContain('matches no recorded property');
    expect([a.subject.matched, a.subject.property_id, a.subject.mode, a.confidence]).toEqual([false, pid, 'typical', 'low']);
    const sqft = a.subject.facts.find((f) => f.name === 'sqft')!;
    expect(sqft.source).toBe('zip_typical');
    const note = a.notes.find((n) => n.includes(`property_id ${pid}`));
    expect(note).toBeDefined();
    expect(note).toContain('its record has no living area');
    expect(note).toContain(`zip's median sqft too (${Number(sqft.value).toLocaleString('en-US')})`);
    expect(note).toContain('typical subject mode: confidence low');
    // the same estimate as an address no record holds (the same typical subject)
    const none = await estimate({ zip, address: '99999 Nowhere Blvd' });
    expect([a.estimated_value, a.value_low, a.value_high]).toEqual([none.estimated_value, none.value_low, none.value_high]);
    expect(none.notes.join(' ')).toContain('matches no recorded property');
  });

  it('sqft sent: found, no living area, the sqft sent used, request mode with the answer\'s confidence', async () => {
    const a = await estimate({ zip, address, sqft: 1200 });
    expect([a.subject.matched, a.subject.mode]).toEqual([false, 'request']);
    expect(a.subject.property_id).not.toBeNull();
    const note = a.notes.find((n) => n.includes(`property_id ${a.subject.property_id}`))!;
    expect(note).toContain('its record has no living area');
    expect(note).toContain('with the sqft sent (1,200)');
    expect(note).toContain(`request subject mode: its interval as calibrated on the back-test's request subjects, confidence ${a.confidence}`);
    expect(a.notes.join(' ')).not.toContain('matches no recorded property');
  });
});
