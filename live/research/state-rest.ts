// A state's market asked outside its one city with sales ("Median price in New York State outside NYC?"): the build's
// New York sales are New York City's only (the Department of Finance's rolling sales of its five boroughs), Colorado's
// Denver's, Pennsylvania's Philadelphia's; the answer says it has no data for the rest of the state, never the city's
// figure (POST /v1/research/query; intent.ts; rules: warehouse/docs/research.md "Entity rules"). Pure.
import { BOROUGHS, stateNameOf, type Gazetteer, type Target } from './place-words.ts';
import { escapeRegExp } from '../../warehouse/regexp.ts';

/** How such a place is listed among a question's unknown places (compose.ts says it with its reason). */
export const REST_LEAD = 'the rest of a state: ';

/** Names of a city in the question: New York City's nicknames and boroughs too. */
const cityWords = (city: string): string => (city === 'New York' ? 'new york city|nyc|new york|the city|(?:the\\s+)?(?:five|5)\\s+boroughs' : escapeRegExp(city.toLowerCase()).replace(/ /g, '\\s+'));

/** For a market question naming a state (or "state") and, after "outside" (or "excluding", "except", "other than",
 *  "apart from", "beyond"), the one city of it the build has sales of: the state's and the city's targets removed and the rest of the
 *  state listed in `unknown` with why. */
export function outsideTheCity(q: string, targets: Target[], unknown: string[], gaz: Pick<Gazetteer, 'citiesByName' | 'hasSales'>): void {
  const lower = q.toLowerCase();
  for (const t of targets) {
    if (!t.city || t.zip || t.area || t.from !== 'query') continue;
    const state = stateNameOf(t.state);
    const m = new RegExp(`\\b(?:outside(?:\\s+of)?|excluding|except(?:\\s+for)?|other\\s+than|apart\\s+from|beyond)\\s+(?:the\\s+)?(?:${cityWords(t.city)})\\b`).exec(lower);
    // the state named too, outside those words ("New York State", "Colorado", "the rest of the state")
    const rest = m ? lower.slice(0, m.index) + ' ' + lower.slice(m.index + m[0].length) : '';
    if (!m || !new RegExp(`\\b(?:${state.toLowerCase().replace(/ /g, '\\s+')}|state)\\b(?!\\s+city\\b)`).test(rest)) continue;
    // another city of the state with sales (not one of New York City's boroughs): the rest of the state has data
    const others = [...gaz.citiesByName.values()].flat().some((c) => c.state === t.state && c.name !== t.city
      && !BOROUGHS.some(([re]) => re.test(c.name)) && (gaz.hasSales?.(c.state, c.name) ?? false));
    if (others || !(gaz.hasSales?.(t.state, t.city) ?? false)) continue;
    for (let i = targets.length - 1; i >= 0; i--) if (targets[i]!.state === t.state) targets.splice(i, 1);
    unknown.push(`${REST_LEAD}${state} state outside ${t.city === 'New York' ? 'New York City' : t.city}: the build's ${state} sales are ${t.city === 'New York' ? "New York City's only (the Department of Finance's rolling sales of its five boroughs)" : `${t.city}'s only`}`);
    return;
  }
}
