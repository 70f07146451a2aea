// Review 18 (r18c B and its legal notes): New York City's ordinances for every place of its five boroughs, and the
// terms a state's rule carries in quick answers. "rent control in queens" and "rent control in 11375" (a zip mailed as
// Forest Hills) said no local ordinance was recorded, and "just cause eviction in 11375" left out the city's good cause
// eviction rule, while "rent control in brooklyn" gave the city's record (live/research/records.ts overlaysFor). A
// quick answer on Connecticut's deposit cap left out its 1-month cap for tenants 62 or older, and Colorado's
// foreclosure its Rule 120 court order (records.ts ruleTerms). Figures from ../shared/reference/legal-facts.csv.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { countSentences } from '../../../live/research/compose.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { legalFacts } from '../../helpers/oracle-geo.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';

let data: ResearchData;
let engine: ResearchEngine;
beforeAll(() => { data = researchData(); engine = new ResearchEngine(data, null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

/** New York City's own active record of a category (the build's regulation index), its title. */
function nycRecord(test: (d: ResearchData['byState'] extends Map<string, (infer D)[]> ? D : never) => boolean): string {
  const d = (data.byState.get('NY') ?? []).find((r) => r.status === 'active' && r.level === 'city' && r.city === 'New York' && test(r));
  if (!d) throw new Error('the build has no such New York City record');
  return d.title;
}

describe('New York City\'s ordinances for its boroughs, their zips and neighbourhoods', () => {
  it('rent control: Queens, a zip mailed as a neighbourhood or as a borough, and a Manhattan zip all give the city\'s record, as Brooklyn does', async () => {
    nycRecord((d) => d.category === 'rent_control' && d.data['rent_control'] === true);
    const brooklyn = await ask('rent control in brooklyn');
    expect(brooklyn).toMatch(/^New York City has local rent control/);
    for (const q of ['rent control in queens', 'is there rent stabilization in queens', 'rent control in 11375', 'rent control in 11201', 'rent control in 10011']) {
      const r = await ask(q);
      expect(r, q).toMatch(/^New York City has local rent control/);
      expect(r, q).not.toMatch(/no local rent control ordinance recorded/);
    }
  });

  it('just cause: the city\'s good cause eviction rule for Queens and 11375, as for the Bronx', async () => {
    const title = nycRecord((d) => /good cause/i.test(d.title));
    for (const q of ['just cause eviction in 11375', 'just cause eviction queens', 'good cause eviction in the bronx']) {
      const r = await ask(q);
      expect(r, q).toContain(title);
      expect(r, q).toContain('recorded for New York City only');
    }
  });

  it('a town of another state named like a borough keeps its own state\'s law', async () => {
    expect(await ask('rent control in Brooklyn, CT')).not.toMatch(/New York City/);
  });
});

describe('a state rule\'s terms go with its figure in quick answers', () => {
  it('Connecticut\'s deposit cap, with the CSV\'s lower cap for tenants 62 or older', async () => {
    const ct = legalFacts().get('CT')!;
    expect(ct.security_deposit_limit_months).toBe('2');
    expect(ct.security_deposit_note).toMatch(/1 month if tenant is 62\+/);
    const r = await ask('security deposit limit in connecticut');
    expect(r).toContain("Connecticut caps residential security deposits at 2 months' rent");
    expect(r).toMatch(/2 months' rent; the cap is 1 month for tenants aged 62 or older \(last reviewed/);
    // in the figure's one sentence: a quick answer keeps to three
    expect(countSentences(r)).toBeLessThanOrEqual(3);
    expect(countSentences(await ask('security deposit california'))).toBeLessThanOrEqual(3);
  });

  it('Colorado\'s non-judicial foreclosure, with the CSV\'s Rule 120 court order', async () => {
    const co = legalFacts().get('CO')!;
    expect(co.foreclosure_type).toBe('non-judicial');
    expect(co.foreclosure_note).toMatch(/Rule 120 court order/);
    const r = await ask('foreclosure process in colorado');
    expect(r).toContain('Mortgage foreclosure in Colorado is non-judicial');
    expect(r).toMatch(/court order under C\.R\.C\.P\. 120/);
  });

  it('a record\'s notes on its sources stay out of the quick answer (its uncertainty note says them)', async () => {
    const r = await ask('foreclosure process in colorado');
    expect(r).not.toMatch(/Nolo|chart/);
  });
});
