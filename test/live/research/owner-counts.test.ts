// Owners counted for a place (warehouse/docs/research.md "Owners counted for a place", live/research/owner-counts.ts):
// Philadelphia's OPA sample names each parcel's owner and mailing address, which its SOURCE.md offers as the
// absentee-owner signal, so "philly absentee owners" and "how many out of state owners in philadelphia" are answered
// with counts (before: "we keep no counts of owners", h71ask/h72ask), each figure recounted here from the raw OPA file
// (test/helpers/oracle-owners.ts). A place whose sources name no owners says so and names the places counted.
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { rawPhiladelphiaOwners, type RawOwners } from '../../helpers/oracle-owners.ts';
import { warehouseRows } from '../../helpers/build.ts';

const asked = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await asked(query)).answer;
const n = (v: number): string => v.toLocaleString('en-US');
const share = (a: number, b: number): string => `${(Math.round((1000 * a) / b) / 10).toFixed(1)}%`;
const absentee = (o: RawOwners): string =>
  `Absentee: ${n(o.absentee)} of the ${n(o.absenteeKnown)} owners (${share(o.absentee, o.absenteeKnown)}) with a mailing street recorded are mailed away from the property`;
const outOfState = (o: RawOwners): string =>
  `Out of state: ${n(o.outOfState)} of the ${n(o.stateKnown)} owners (${share(o.outOfState, o.stateKnown)}) with a mailing state recorded are mailed outside Pennsylvania`;
const OPA_ROWS = async (): Promise<number> => (await rawQuery<{ n: number }>(
  `select count(*)::int as n from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)`))[0]!.n;

describe('owners of a place whose source names them: counted from the raw file', () => {
  it('"philly absentee owners", "owner occupied homes philadelphia": the absentee count first, with the sample said', async () => {
    const city = (await rawPhiladelphiaOwners()).get('city|PA|philadelphia')!;
    expect(city.named).toBeGreaterThan(5000);
    for (const q of ['philly absentee owners', 'owner occupied homes philadelphia', 'owner-occupancy rate in philly']) {
      const a = await ask(q);
      expect(a, q).toMatch(new RegExp(`^In Philadelphia, PA, ${n(city.named)} properties have a named owner, as Philadelphia OPA property assessments names them`));
      expect(a, q).toContain(`its rows are a sample of ${n(await OPA_ROWS())} rows of the source, not every property of the place`);
      expect(a, q).toContain(`. ${absentee(city)} (the mailing street or zip is not the property's); the other ${n(city.absenteeKnown - city.absentee)} are mailed at the property itself`);
      expect(a, q).toContain(outOfState(city));
    }
  });

  it('"how many out of state owners in philadelphia": the out-of-state count first', async () => {
    const city = (await rawPhiladelphiaOwners()).get('city|PA|philadelphia')!;
    const a = await ask('how many out of state owners in philadelphia');
    expect(a).toMatch(/^In Philadelphia, PA, [\d,]+ properties have a named owner/);
    expect(a.indexOf(outOfState(city))).toBeGreaterThan(0);
    expect(a.indexOf(outOfState(city))).toBeLessThan(a.indexOf('Absentee: '));
  });

  it('a zip of the sample ("absentee owners in 19104"): its own counts', async () => {
    const zip = (await rawPhiladelphiaOwners()).get('zip|19104')!;
    const a = await ask('absentee owners in 19104');
    expect(a).toMatch(new RegExp(`^In zip 19104 \\(Philadelphia, PA\\), ${n(zip.named)} propert(y|ies) ha(s|ve) a named owner`));
    expect(a).toContain(absentee(zip));
    expect(a).toContain(outOfState(zip));
  });

  it('owner types: "corporate owned homes philly", "who owns the most homes in philadelphia" lead with them, not ranked by name', async () => {
    // owner_type is read per property by property.md's rule (tested per property in test/live/property); here the
    // counts are the properties table's, and they sum to the named owners counted from the raw file
    const city = (await rawPhiladelphiaOwners()).get('city|PA|philadelphia')!;
    const types = await warehouseRows<{ t: string; k: number }>(`select owner_type as t, count(*)::int as k from properties where source = 'philadelphia' and owner_name is not null group by 1`);
    expect(types.reduce((s, r) => s + r.k, 0)).toBe(city.named);
    const corporate = types.find((r) => r.t === 'corporate')!.k;
    for (const q of ['corporate owned homes philly', 'who owns the most homes in philadelphia', 'what share of philadelphia homes are owned by llcs']) {
      const a = await ask(q);
      expect(a, q).toContain(`. By owner type (read from the owner's name): `);
      expect(a.indexOf('By owner type'), q).toBeLessThan(a.indexOf('Absentee: '));
      expect(a, q).toContain(`${n(corporate)} companies (LLCs, corporations, partnerships) (${share(corporate, city.named)})`);
    }
    expect(await ask('who owns the most homes in philadelphia')).toContain('Owners are counted by type, not ranked by name');
  });

  it('Denver\'s deeds name owners but no mailing address: types counted, absentee and out of state said not counted', async () => {
    const a = await ask('llc owned homes in denver');
    expect(a).toMatch(/^In Denver, CO, [\d,]+ properties have a named owner, as Denver real property sales and transfers 2018-2019 names them/);
    expect(a).toContain('No mailing address is recorded for these owners, so absentee owners and owner-occupied homes are not counted');
    expect(a).toContain('No mailing state is recorded for these owners, so out-of-state owners are not counted');
    // a type of one owner is said in the singular, and a share under 0.05% is not rounded to nothing
    expect(a).not.toMatch(/\b1 (individuals|companies|trusts|banks|government bodies|nonprofits)\b|\(0\.0%\)/);
  });
});

describe('owners of a place whose sources name none', () => {
  it('"absentee owners in seattle": said not counted, the counted places named', async () => {
    const a = await ask('absentee owners in seattle');
    expect(a).toMatch(/^No source here names the owners of Seattle, WA's properties, so its owners are not counted\. Here owners are counted only where a source names them: the properties of /);
    expect(a).toMatch(/Philadelphia, PA/);
    expect(a).toMatch(/Denver, CO/);
  });

  it('no place: asked to name one', async () => {
    expect(await ask('how many absentee owners are there')).toMatch(/^Name a place: owners are counted only where a source names them/);
  });
});
