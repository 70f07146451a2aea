// The investor overview's distressed pipeline (count, `distressed_without_parcel`, `distress_as_of`) of Allegheny
// County municipalities and Louisville at 6, 12 and 24 months, and the research answer quoting it, over HTTP against a
// recount from the RAW distress files (h67 audit; test/helpers/oracle-distress.ts `openProperties`: open filings by
// the file's own docket and sale columns). Before this file the HTTP counts were compared with an oracle over the
// build's canonical `distress` table (values-market.test.ts), not with the files.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { openProperties, type OpenProperties } from '../helpers/oracle-distress.ts';

const api = serveSharedBuild('pro');
const MONTHS = [6, 12, 24];
// the answer's city -> the raw file's place (Allegheny's municipality column; "City of X" is X: market.md mart_investor)
const PLACES: [string, string, string][] = [['Pittsburgh', 'PA', 'Pittsburgh'], ['Penn Hills Township', 'PA', 'Penn Hills Township'],
  ['McKeesport', 'PA', 'City of McKeesport'], ['Louisville', 'KY', 'Louisville']];
let raw: OpenProperties[];

beforeAll(async () => { raw = await openProperties(MONTHS); }, 120_000);

const want = (place: string, months: number): OpenProperties => raw.find((r) => r.place === place && r.months === months) ?? { place, months, n: 0, without_parcel: 0 };

describe('distressed pipeline counts equal a recount from the raw filing files', () => {
  test('investor overview of Pittsburgh, Penn Hills Township, McKeesport and Louisville, 6, 12 and 24 months', async () => {
    expect(want('Pittsburgh', 12).n).toBeGreaterThan(100);
    expect(want('Louisville', 24).n).toBeGreaterThan(100);
    const bad: string[] = [];
    for (const [city, state, place] of PLACES) {
      for (const months of MONTHS) {
        const res = await api.get(`/v1/market/investor-overview?city=${encodeURIComponent(city)}&state=${state}&months=${months}`);
        expect(res.status, `${city} ${months}`).toBe(200);
        const b = (await res.json()) as { city: string; distressed_pipeline_count: number | null; distressed_without_parcel: number | null; distress_as_of: string };
        const w = want(place, months);
        const lastFiling = state === 'KY' ? '2016-06-03' : '2022-08-30'; // SOURCE.md: the files' last filing days
        if (b.distressed_pipeline_count !== w.n || b.distressed_without_parcel !== w.without_parcel || b.distress_as_of !== lastFiling) {
          bad.push(`${city} ${months}: api ${b.distressed_pipeline_count} (${b.distressed_without_parcel} without parcel, to ${b.distress_as_of}), raw ${w.n} (${w.without_parcel})`);
        }
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);

  test('the research answer quotes the same counts (Louisville 12 months, Pittsburgh 24 months, the two counties)', async () => {
    const ask = async (query: string): Promise<string> => {
      const res = await api.post('/v1/research/query', { query });
      expect(res.status).toBe(200);
      return ((await res.json()) as { answer: string }).answer;
    };
    const lv = want('Louisville', 12);
    expect(await ask('How many distressed properties are in Louisville, KY over the last 12 months?')).toContain(`${lv.n} distressed properties`);
    const pit = want('Pittsburgh', 24);
    const answer = await ask('How many distressed properties are in Pittsburgh, PA over the last 24 months?');
    expect(answer).toContain(`${pit.n} distressed properties`);
    expect(answer).toContain(`${pit.n - pit.without_parcel} identified by parcel or address and ${pit.without_parcel} filings naming neither`);
    // the county level: Allegheny County's open properties, each counted once across its municipalities, and
    // Jefferson County, KY, Louisville's (the Louisville file is Louisville Metro's alone)
    const county = want('Allegheny County', 12);
    expect(county.n).toBeGreaterThan(want('Pittsburgh', 12).n);
    const allegheny = await ask('How many distressed properties are in Allegheny County, PA over the last 12 months?');
    expect(allegheny).toContain(`${county.n} distressed properties`);
    expect(allegheny).toContain(`${county.n - county.without_parcel} identified by parcel or address and ${county.without_parcel} filings naming neither`);
    expect(await ask('How many distressed properties are in Jefferson County, KY over the last 24 months?')).toContain(`${want('Louisville', 24).n} distressed properties`);
  }, 120_000);
});
