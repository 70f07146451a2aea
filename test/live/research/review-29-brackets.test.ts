// Review 29 #4: a zip in brackets beside a neighbourhood's name was quoted with its bracket left open (`Reading
// "Kensington (19134": zip 19134 is in ...`), "(19134) Kensington" compared the zip with Brooklyn's Kensington, and
// "Kensington (19134) Philadelphia" was not read as "Kensington 19134 Philadelphia". Over the shared real build through
// a real server on 127.0.0.1 port 0; each wording is held to the answer of the plain one (19134's own figures, tested
// against the raw files in review-27-words.test.ts).
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';

const api = serveSharedBuild('pro', 100_000);
const research = async (query: string): Promise<{ answer: string }> => {
  const r = await api.post('/v1/research/query', { query });
  expect(r.status, query).toBe(200);
  return await r.json() as { answer: string };
};

describe('review 29 #4: a zip in brackets beside a neighbourhood\'s name is quoted whole', () => {
  it('"Kensington (19134)": the bracket closed; with Philadelphia after it, read as "Kensington 19134 Philadelphia" is', async () => {
    const own = (await research('median price in 19134')).answer;
    const asZip = (w: string): string => `Reading "${w}": zip 19134 is in Philadelphia, PA, not in Kensington, CT, so the figures are the zip's own; name Kensington, CT alone for its figures: ${own}`;
    expect((await research('median price Kensington (19134)')).answer).toBe(asZip('Kensington (19134)'));
    expect((await research('median price (19134) Kensington')).answer).toBe(asZip('(19134) Kensington'));
    const hood = (await research('median price Kensington 19134 Philadelphia')).answer;
    expect(hood).toMatch(/^Reading "Kensington" as a neighbourhood of Philadelphia, PA/);
    for (const q of ['median price Kensington (19134) Philadelphia', 'median price (19134) Kensington Philadelphia']) expect((await research(q)).answer, q).toBe(hood);
  });
});
