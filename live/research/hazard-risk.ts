// A natural hazard's risk asked of a place ("hurricane risk miami dade county": before, read as Miami with no topic,
// "I don't have data"): FEMA's NRI scores each hazard, but the build's county table keeps only the composite score
// (fema-nri SOURCE.md: its hazard columns are not in the county file), said so before the county's composite score
// (nri.ts), never a per-hazard figure. A county named is answered as that county, not a city of its name.
import type { Gazetteer } from './places.ts';
import { countiesAsked } from './county-place.ts';
import { nriAnswer, nriTargets, type NriPlaces, type NriScores } from './nri.ts';
import type { Target } from './place-words.ts';

const HAZARDS = /\b(hurricanes?|tornado(?:e?s)?|wildfires?|earthquakes?|heat ?waves?|droughts?|hail|landslides?|tsunamis?|winter weather|ice storms?|lightning|avalanches?|cold waves?|strong winds?)\b(?= (?:risk|danger|exposure|hazard|score|rating|zone)s?\b)|\b(?:risk|danger|exposure) (?:of|from) (hurricanes?|tornado(?:e?s)?|wildfires?|earthquakes?)\b/;

/** The answer to a hazard's risk of a place, or null when no hazard is asked or no county score is kept for it. */
export function hazardRisk(data: NriPlaces & Gazetteer, query: string, targets: readonly Target[], nri: NriScores): { answer: string; citation: string } | null {
  const m = HAZARDS.exec(query.toLowerCase());
  if (!m) return null;
  const hazard = (m[1] ?? m[2])!;
  const states = targets.map((t) => t.state);
  const counties = countiesAsked(query, data, states);
  const found = (counties.length ? counties : nriTargets(query, targets, data)).map((t) => nriAnswer(data, t, nri)).filter((a) => a !== null);
  if (!found.length) return null;
  const lead = `FEMA's National Risk Index scores ${hazard} risk apart, but this build keeps only each county's composite score of all natural hazards, not its ${hazard} score; the composite is:`;
  return { answer: `${lead} ${found.map((a) => a.answer).join(' ')}`, citation: found[0]!.citation };
}
