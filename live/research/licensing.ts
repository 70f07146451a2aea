// Landlord licensing and rental registration (POST /v1/research/query): "do I need a license to be a landlord in
// Chicago", "rental registration in Philadelphia". Answered from the regulation records on that subject of the place
// (its state's, its city's or its county's: a record whose subcategory or title names a rental licence, registration
// or permit), or said plainly to be missing - never with a record that only shares a word ("licensing" is in the
// seller-financing record's fields too).
import type { RegulationDoc, ResearchData } from './data.ts';
import { LICENSING, type Understanding } from './intent.ts';
import { missing, placeName, type Fact } from './facts.ts';
import { regFact } from './records.ts';
import { slug } from '../../warehouse/layout.ts';

const COVERS = 'our research covers landlord-tenant, eviction, foreclosure, tax sale, rent control and adverse possession rules, plus sale prices and trends, comparable sales, rehab momentum, investor activity and flood and Superfund risk';

/** A record about licensing or registering a rental: its subcategory, or its title, names one. */
const isLicensing = (d: RegulationDoc): boolean => /licen[cs]|regist/.test(d.subcategory) || LICENSING.test(d.title);

export function licensingFacts(data: ResearchData, u: Understanding): Fact[] {
  const all = data.docs.filter((d) => d.status === 'active' && isLicensing(d));
  if (u.targets.length === 0) {
    return [missing('search', null, all.length
      ? "I don't have an answer on landlord licensing without a place: rental licensing and registration rules are local, so name a state or a city"
      : `I don't have an answer on landlord licensing or rental registration: no state or city rule on licensing or registering a rental is recorded in our data; ${COVERS}`)];
  }
  return u.targets.flatMap((t) => {
    const county = t.city ? data.cityInState(t.city, t.state)?.county_fips ?? null : null;
    const own = all.filter((d) => d.state === t.state && (d.level === 'state'
      || (d.level === 'city' && t.city !== undefined && slug(d.city ?? '') === slug(t.city))
      || (d.level === 'county' && county !== null && d.county_fips === county)));
    if (own.length) return own.map((d) => regFact('search', t, d, data.stateName(t.state), true));
    const where = t.city ? `${t.city} or ${data.stateName(t.state)}` : data.stateName(t.state);
    return [missing('search', t, `I don't have an answer on landlord licensing or rental registration for ${placeName(data, t)}: no rule on licensing or registering a rental is recorded for ${where} in our data; ${COVERS}`)];
  });
}
