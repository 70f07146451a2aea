// One typo in a street line (live/property/typo-street.ts; warehouse/docs/property.md "One typo"): review 28 typed
// "7921 Doe Trial Way" (95843), "1833 East 21st Stret" (11229) and "2835 Unrhu Ave" (19149); each answered as the zip's
// typical house, $216,800 against the record's $373,200. The records are read from the raw files; the misspelt line
// must give the same property in GET /v1/property and POST /v1/valuation/estimate as the right one, with a note naming
// what it was read as. A typo that two recorded lines are equally close to, or in a word too short to have one, is no
// match (the 404's closest lines name the candidates).
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { addressAnswers } from '../../helpers/address-answers.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

const api = serveSharedBuild('pro');

const { property, value } = addressAnswers(api);

describe('an address one typo from the zip\'s one recorded line', () => {
  const cases = [
    // typed with a typo, typed right, the raw file's query (a row of the address exists), zip
    ['7921 Doe Trial Way', '7921 Doe Trail Way', `select count(*)::int n from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true) where street = '7921 DOE TRAIL WAY' and zip = '95843'`, '95843'],
    ['1833 East 21st Stret', '1833 East 21st Street', `select count(*)::int n from read_csv('${dataFile('nyc-rolling-sales/*.csv.gz')}', all_varchar = true) where "ADDRESS" = '1833 EAST 21ST STREET' and "ZIP CODE" = '11229'`, '11229'],
    ['2835 Unrhu Ave', '2835 Unruh Ave', `select count(*)::int n from read_csv('${dataFile('philadelphia-opa-properties-sample/*.csv.gz')}', all_varchar = true) where location = '2835 UNRUH AVE' and zip_code like '19149%'`, '19149'],
  ] as const;
  for (const [typo, right, sql, zip] of cases) {
    it(`${typo} (${zip}) is the property of ${right}, said in both answers`, async () => {
      const [row] = await rawQuery<{ n: number }>(sql);
      expect(row!.n, right).toBeGreaterThan(0);
      const want = await property(zip, right);
      expect(want.status).toBe(200);
      const got = await property(zip, typo);
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      expect(got.body['property_id']).toBe(want.body['property_id']);
      expect(got.body['notes']).toEqual([expect.stringMatching(new RegExp(`^No property at "${typo}" in zip ${zip}: read as .* \\(property_id ${String(want.body['property_id'])}\\)`))]);
      const a = await value(zip, typo), b = await value(zip, right);
      expect(a.subject.matched, typo).toBe(true);
      expect(a.subject.property_id).toBe(b.subject.property_id);
      expect(a.estimated_value).toBe(b.estimated_value);
      expect(a.notes?.[0]).toMatch(/^No property at .* read as /);
    });
  }

  it('no match when the typo is in a word under five letters, or the line is two typos away', async () => {
    for (const typo of ['7921 Dae Trail Way', '7921 Doe Triel Wey']) {
      expect((await property('95843', typo)).status, typo).toBe(404);
      expect((await value('95843', typo)).subject.matched, typo).toBe(false);
    }
  });
});
