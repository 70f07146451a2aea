// Review 24 A: a lower-case town name with no "in" before it, next to a topic word, is read when a source of the build
// covers the town ("mckeesport foreclosures": Allegheny County's filings; live/places/question.ts uncuedTown); and a
// town's name written but not read is named in the answer, never "name a city" as if no place had been named
// (live/research/unread-words.ts). Counts are our own SQL over Allegheny's raw docket file, the pinned clock's build.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { ALLEGHENY_OPEN } from '../../helpers/oracle-distress.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

/** Open properties of one raw municipality name over the 12 months to the file's last filing. */
const openCount = async (municipality: string): Promise<number> => {
  const [r] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${ALLEGHENY_OPEN} where m = '${municipality}'`);
  return r!.n;
};

describe('review 24 A: lower-case towns a source covers, next to a topic word', () => {
  it('"mckeesport foreclosures", "wilkinsburg foreclosures", "munhall foreclosures": each town\'s count, as capitalised', async () => {
    for (const [query, town, raw] of [['mckeesport foreclosures', 'McKeesport', 'City of McKeesport'], ['wilkinsburg foreclosures', 'Wilkinsburg', 'Wilkinsburg Boro'],
      ['munhall foreclosures', 'Munhall', 'Munhall Boro'], ['foreclosures mckeesport', 'McKeesport', 'City of McKeesport']] as const) {
      const n = await openCount(raw);
      expect(n, raw).toBeGreaterThan(5);
      const a = await ask(query);
      expect(a, query).toMatch(new RegExp(`^In ${town}, PA, ${n} distressed properties`));
      const capitalised = query.replace(/\b(mckeesport|wilkinsburg|munhall)\b/, (w) => w.charAt(0).toUpperCase() + w.slice(1));
      expect(a, query).toBe(await ask(capitalised));
    }
  });

  it('"wilkinsburg vs munhall foreclosures": both towns compared, no "no place named"', async () => {
    const [w, m] = [await openCount('Wilkinsburg Boro'), await openCount('Munhall Boro')];
    const a = await ask('wilkinsburg vs munhall foreclosures');
    expect(a).toContain(`Wilkinsburg, PA: ${w} distressed properties`);
    expect(a).toContain(`Munhall, PA: ${m} distressed properties`);
    expect(a).not.toMatch(/no place named|could not find/);
  });

  it('a town\'s name not read is named ("tupelo": no source covers Tupelo, MS), never "name a city"', async () => {
    // ("baldwin foreclosures" is read since review 25: Baldwin, PA, the one Baldwin the filings name; review-25-places)
    const a = await ask('tupelo foreclosures');
    expect(a).toMatch(/^I did not read "tupelo" as a place: /);
    expect(a).toContain('e.g. "Tupelo, MS"');
    expect(a).not.toContain('without a city');
    // common English words are no town read in lower case ("green tree"), but the note names them
    expect(await ask('green tree foreclosures')).toMatch(/^I did not read "green tree" as a place: .*e\.g\. "Green Tree, PA"/);
    // no place-like word: the plain answer stays
    expect(await ask('foreclosures')).toContain('without a city');
    expect(await ask('median price')).not.toContain('I did not read');
  });
});
