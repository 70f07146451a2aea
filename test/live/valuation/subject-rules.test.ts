// Which subject a request describes and what the valuation refuses (review 5), over the shared real build, with oracles
// read from the RAW files (NYC rolling sales, King County): condo and co-op units where the source records no unit
// size, a matched record's own condition, the subject's other sales kept out of its comps, King County parcel numbers
// typed with a leading zero, and the 404 wording of a zip that is not covered or not a zip.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ValuationEngine, noCompsMessage, type ValuationBody } from '../../../live/valuation/endpoint.ts';
import { typedUnit } from '../../../live/valuation/coverage.ts';
import { buildDir } from '../../helpers/build.ts';
import { REPO } from '../../helpers/paths.ts';

const DATA = path.join(REPO, '..', 'shared', 'data');
const lines = (file: string): string[] => zlib.gunzipSync(fs.readFileSync(path.join(DATA, file))).toString('utf8').trim().split('\n');
/** A CSV line's fields (quoted fields may hold commas). */
const fields = (l: string): string[] => [...l.matchAll(/("([^"]*)"|[^,]*)(,|$)/g)].map((m) => m[2] ?? m[1]!).slice(0, -1);

const body = (a: ReturnType<ValuationEngine['answer']>): ValuationBody => { expect(a.ok).toBe(true); return (a as { body: ValuationBody }).body; };
const fact = (b: ValuationBody, name: string): { value: number | string; source: string } | undefined => b.subject.facts.find((f) => f.name === name);

describe('valuation subjects and refusals (real build, raw oracles)', () => {
  let engine: ValuationEngine;
  let nyc: Map<string, string[]>; // raw ADDRESS -> fields
  let nycHead: string[];
  let kc: string[][];
  let kcHead: string[];
  beforeAll(() => {
    engine = ValuationEngine.fromDir(path.join(buildDir(), 'live', 'valuation'));
    nyc = new Map();
    for (const f of ['nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc_rolling_sales_2023-03_2024-02.csv.gz']) {
      const [h, ...rest] = lines(path.join('nyc-rolling-sales', f));
      nycHead = fields(h!);
      for (const l of rest) { const r = fields(l); nyc.set(r[nycHead.indexOf('ADDRESS')]!, r); }
    }
    const [h, ...rest] = lines(path.join('king-county-wa-house-sales', 'kc_house_data.csv.gz'));
    kcHead = h!.split(',').map((c) => c.replace(/"/g, ''));
    kc = rest.map((l) => l.split(',').map((c) => c.replace(/"/g, '')));
  });

  const units = [
    ['10011', '170 West 23rd Street, 4M', '170 WEST 23RD STREET, 4M'],
    ['10003', '70 E 10th St 9L', '70 EAST 10TH STREET, 9L'],
    ['10002', '48 Allen St 2B', '48 ALLEN STREET, 2B'],
    ['11373', '94-11 59th Ave G30', '94-11 59TH AVENUE, G30'],
  ] as const;

  it.each(units)('an NYC unit (%s %s) gets a 404 saying units cannot be valued, never a whole building\'s value', (zip, typed, raw) => {
    // oracle: the raw row is a condo or co-op unit sale without a GROSS SQUARE FEET
    const r = nyc.get(raw)!;
    expect(r, raw).toBeDefined();
    expect(r[nycHead.indexOf('BUILDING CLASS CATEGORY')]).toMatch(/CONDOS|COOPS/);
    expect(r[nycHead.indexOf('GROSS SQUARE FEET')]).toBe('');
    for (const input of [{ zip, address: typed }, { zip, address: typed, sqft: 850 }]) {
      const a = engine.answer(input);
      expect(a.ok).toBe(false);
      const msg = (a as { message: string }).message;
      expect((a as { code: string }).code).toBe('no_data');
      expect(msg).toContain(`Condo and co-op units cannot be valued in zip ${zip}`);
      expect(msg).toContain('records no unit sizes');
    }
  });

  it('the unit a typed address names: designators, a bare unit after a comma or the street suffix, not a highway number', () => {
    expect(typedUnit('170 West 23rd Street, 4M')).toEqual({ street: '170 WEST 23RD ST', unit: '4M' });
    expect(typedUnit('70 E 10th St 9L')).toEqual({ street: '70 E 10TH ST', unit: '9L' });
    expect(typedUnit('2101 Market St #1507')).toEqual({ street: '2101 MARKET ST', unit: '1507' });
    expect(typedUnit('4000 Stone Way N').unit).toBeNull();
    expect(typedUnit('123 Main St, Seattle').unit).toBeNull();
    expect(typedUnit('100 US Highway 1').unit).toBeNull();
    expect(typedUnit('6324000090').unit).toBeNull();
  });

  it('a Philadelphia condo unit with a living area still matches its record; an unknown unit is valued from unit sales only', () => {
    const b = body(engine.answer({ zip: '19103', address: '2101 Market St #1507' }));
    expect(b.subject).toMatchObject({ matched: true, mode: 'record' });
    const u = body(engine.answer({ zip: '19103', address: '2101 Market St #99Z' }));
    expect(u.subject).toMatchObject({ matched: false, mode: 'typical' });
    expect(u.comps.length).toBeGreaterThan(0);
    for (const c of u.comps) expect(c.address).toContain(' #');
  });

  it('a matched record without a condition in the request is valued at its recorded condition (King County 1 = poor)', () => {
    const r = kc.find((x) => x[0] === '6324000090')!;
    expect(r[kcHead.indexOf('condition')]).toBe('1');
    const b = body(engine.answer({ zip: '98116', address: '6324000090' }));
    expect(fact(b, 'condition')).toEqual({ name: 'condition', value: 'poor', source: 'record' });
    const sent = body(engine.answer({ zip: '98116', address: '6324000090', condition: 'good' }));
    expect(fact(sent, 'condition')).toEqual({ name: 'condition', value: 'good', source: 'request' });
    expect(b.estimated_value).toBeLessThan(sent.estimated_value);
    expect(fact(body(engine.answer({ zip: '98116', address: '1 No Such Parcel' })), 'condition')?.source).toBe('default');
  });

  it('none of the subject\'s own sales is a comp: 2055 FULTON ST (NYC) and King County 2231500030 (sold twice)', () => {
    expect(kc.filter((x) => x[0] === '2231500030').map((x) => x[kcHead.indexOf('price')])).toEqual(['315000', '530000']);
    for (const [zip, address, key] of [['11233', '2055 FULTON ST', '2055 FULTON ST'], ['98133', '2231500030', '2231500030']] as const) {
      const b = body(engine.answer({ zip, address }));
      expect(b.subject.matched).toBe(true);
      expect(b.comps.length).toBeGreaterThan(0);
      for (const c of b.comps) { expect(c.property_id).not.toBe(b.subject.property_id); expect(c.address).not.toBe(key); }
    }
  });

  it('a King County parcel number typed with its leading zero matches the record the file stored without it', () => {
    expect(kc.filter((x) => x[0] === '726049190').length).toBe(2);
    const bare = body(engine.answer({ zip: '98133', address: '726049190' }));
    const zero = body(engine.answer({ zip: '98133', address: '0726049190' }));
    expect(zero.subject).toMatchObject({ matched: true, mode: 'record', property_id: bare.subject.property_id });
    expect(zero.estimated_value).toBe(bare.estimated_value);
  });

  it.each([
    ['00901', 'Zip 00901 is in Puerto Rico: not covered (the service covers the 50 states and DC)'],
    ['99999', 'Unknown zip 99999: not a US zip code this build knows'],
    ['59001', "Zip 59001 (MT) is not covered by this build's sales sources"],
    ['06830', noCompsMessage('06830')],
  ])('the 404 of zip %s says why', (zip, message) => {
    const a = engine.answer({ zip, address: '1 Main St' });
    expect(a).toMatchObject({ ok: false, code: 'no_data' });
    expect((a as { message: string }).message).toContain(message);
  });
});
