// A street line typed without the direction or suffix its record writes (live/property/typo-street.ts leftOutEntry;
// warehouse/docs/property.md "Left out"): review 58 asked GET /v1/property for "2705 Jefferson" in 40212 and got a 404
// whose first candidate was the zip's one 2705 W JEFFERSON ST. The lines are drawn from the raw Philadelphia file: a
// line with a direction and a suffix whose house number and street name no other line of its zip shares. Typed
// without them, it is the same property in GET /v1/property and POST /v1/valuation/estimate, with a note; two
// properties that both write the typed line in full stay a 404.
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { addressAnswers } from '../../helpers/address-answers.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { leftOutEntry } from '../../../live/property/typo-street.ts';
import type { ZipEntry } from '../../../live/property/layout.ts';

const api = serveSharedBuild('pro');

const { property, value } = addressAnswers(api);

/** Raw OPA lines "<n> <dir> <name> <suffix>" whose number and name are their zip's only such line. */
async function uniqueLines(): Promise<{ zip: string; n: string; dir: string; name: string; line: string }[]> {
  const f = dataFile('philadelphia-opa-properties-sample/*.csv.gz');
  return rawQuery(`with a as (select distinct trim(location) line, left(zip_code, 5) zip from read_csv('${f}', all_varchar = true)
      where location is not null and coalesce(trim(unit), '') = ''),
    p as (select *, regexp_extract(line, '^(\\d+) (N|S|E|W) ([A-Z0-9]+) (ST|AVE|RD)$', ['n', 'dir', 'name', 'suf']) m from a)
    select p.zip, m.n, m.dir, m.name, p.line from p
    where m.n <> '' and (select count(distinct line) from a a2 where a2.zip = p.zip and a2.line like m.n || ' %' and contains(' ' || a2.line || ' ', ' ' || m.name || ' ')) = 1
    order by p.zip, p.line limit 3`);
}

describe('a street line typed without its direction or suffix', () => {
  it('is the zip\'s one line that writes it in full, in both answers, said in a note', async () => {
    const lines = await uniqueLines();
    expect(lines.length).toBe(3);
    for (const { zip, n, dir, name, line } of lines) {
      const want = await property(zip, line);
      expect(want.status, line).toBe(200);
      for (const typed of [`${n} ${name}`, `${n} ${dir} ${name}`]) {
        const got = await property(zip, typed);
        expect(got.status, `${typed} ${JSON.stringify(got.body)}`).toBe(200);
        expect(got.body['property_id']).toBe(want.body['property_id']);
        expect(got.body['notes']).toContainEqual(expect.stringMatching(new RegExp(`^No property at "${typed}" in zip ${zip}: read as ${line} .*direction or suffix left out`)));
      }
      const a = await value(zip, `${n} ${name}`), b = await value(zip, line);
      expect(a.subject.matched).toBe(true);
      expect(a.subject.property_id).toBe(b.subject.property_id);
      expect(a.estimated_value).toBe(b.estimated_value);
    }
  });

  it('names no property when two write it in full, or the record adds a word that is no direction or suffix', () => {
    const e = (line: string, id: string): ZipEntry => [line, null, id, 'philadelphia'];
    const pair = [e('2705 W JEFFERSON ST', 'a'), e('2705 E JEFFERSON ST', 'b')];
    expect(leftOutEntry(pair, '2705 JEFFERSON', null)).toBeNull();
    expect(leftOutEntry(pair, '2705 W JEFFERSON', null)?.[2]).toBe('a');
    expect(leftOutEntry([e('2705 JEFFERSON PARK ST', 'c')], '2705 JEFFERSON', null)).toBeNull();
    expect(leftOutEntry([e('2705 W JEFFERSON ST', 'a')], '2706 JEFFERSON', null)).toBeNull();
  });
});
