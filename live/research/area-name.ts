// A borough's, neighbourhood's or city's name as answers say it, with its city and state: its own module so the
// period readers (context-period.ts) name a place without importing the facts module (which names the intents).
import { hoodName } from './hoods.ts';
import type { Target } from './place-words.ts';

export const areaName = (t: Target): string => (t.hood ? `${hoodName(t.hood)} (${t.hood.part}, ${t.city}, ${t.state})` : t.area ? (t.city ? `${t.area.name} (${t.city}, ${t.state})` : `${t.area.name}, ${t.state}`) : `${t.city}, ${t.state}`);
