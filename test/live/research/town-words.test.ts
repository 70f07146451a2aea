// Town names that are English words (Mobile, AL; Independence, MO; Fairview, NJ; Surprise, AZ): capitalised just after
// "in", "near", "for"... or starting the question before a market word ("Fairview sales"), they are the town, its most
// populous namesake, said as read, as Franklin and Madison are (before: no place, "I don't have a ranking of cities",
// or "Fairview sales" a tax sale rule); where the word is the word ("mobile home prices in Seattle", "Independence
// Day", "fair view") no town is read. Over the shared real build's research index on the suite's pinned clock; the
// namesakes and their populations are the index's Census place list (places.json).
import { describe, expect, it } from 'vitest';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { ResearchEngine } from '../../../live/research/endpoint.ts';

const ask = async (query: string): Promise<string> => (await new ResearchEngine(researchData(), null, PINNED_TODAY).answer({ query, depth: 'quick' })).answer;

describe('a town whose name is a word, used as a place, is read as its most populous namesake, said', () => {
  it('"median price in Mobile", "home prices in Independence", "Fairview sales", "Fairview home prices", "home prices in Surprise"', async () => {
    const d = researchData();
    const top = (name: string) => { const c = d.citiesByName.get(name)!; return { ...c[0]!, n: c.length }; };
    const mobile = top('mobile'), indep = top('independence'), fair = top('fairview'), surprise = top('surprise');
    expect([mobile.state, mobile.n, indep.state, fair.state, surprise.state]).toEqual(['AL', 1, 'MO', 'NJ', 'AZ']);
    expect(await ask('median price in Mobile')).toContain('Reading "Mobile" as the town Mobile, AL (the only US place of that name; name the state for another): We have no single-family sales for a median sale price in Mobile, AL');
    expect(await ask('home prices in Independence')).toContain(`Reading "Independence" as Independence, MO (the most populous of ${indep.n} US places of that name; name the state for another): We have no single-family sales for a median sale price in Independence, MO`);
    for (const q of ['Fairview sales', 'Fairview home prices']) {
      const r = await ask(q);
      expect(r, q).toContain(`Reading "Fairview" as Fairview, NJ (the most populous of ${fair.n} US places of that name; name the state for another): We have no single-family sales for a median sale price in Fairview, NJ`);
      expect(r, q).not.toMatch(/tax (lien|deed)/);
    }
    expect(await ask('home prices in Surprise')).toContain(`Reading "Surprise" as the town Surprise, AZ (the most populous of ${surprise.n} US places of that name; name the state for another)`);
  });
  it('the word used as a word is no town: "mobile home prices in Seattle", "Mobile home prices in Seattle", "Independence Day", "fair view"', async () => {
    for (const q of ['mobile home prices in Seattle', 'Mobile home prices in Seattle', 'home sales around Independence Day in Seattle', 'fair view homes in Seattle', 'median price of Mobile homes in Seattle']) {
      const r = await ask(q);
      expect(r, q).toMatch(/In Seattle, WA, the median single-family sale price was/);
      expect(r, q).not.toMatch(/Mobile, AL|Independence, MO|Fairview, NJ|Day, FL/);
    }
    expect(await ask('Independence Day sales in 98103')).not.toMatch(/Independence, MO|Day, FL/);
  });
});
