// A calendar quarter asked ("Q4 2023", "2023 Q4", "the fourth quarter of 2023", "4th quarter 2023"): read as its three
// months (pure, no imports), answered as calendar years are (year-facts.ts) over those months only. Rules:
// warehouse/docs/research.md "Years".

const ORDINALS: Record<string, number> = { first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, last: 4, final: 4 };

/** The quarter asked as a Years-shaped reading: `months` its first and last month (YYYY-MM); null when none is named. */
export function parseQuarter(q: string): { from: number; to: number; label: string; months: [string, string] } | null {
  const y = '((?:19|20)\\d{2})';
  const a = new RegExp(`\\bq([1-4])\\s*(?:of\\s+|,\\s*)?'?${y}\\b`, 'i').exec(q);
  const b = new RegExp(`\\b${y}\\s*[- ]?\\s*q([1-4])\\b`, 'i').exec(q);
  const c = new RegExp(`\\b(first|second|third|fourth|1st|2nd|3rd|4th|last|final)\\s+quarter\\s+(?:of\\s+)?(?:the\\s+year\\s+)?${y}\\b`, 'i').exec(q);
  const n = a ? Number(a[1]) : b ? Number(b[2]) : c ? ORDINALS[c[1]!.toLowerCase()]! : 0;
  const year = Number(a ? a[2] : b ? b[1] : c ? c[2] : 0);
  if (!n || !year) return null;
  const month = (m: number): string => `${year}-${String(m).padStart(2, '0')}`;
  const months: [string, string] = [month(n * 3 - 2), month(n * 3)];
  return { from: year, to: year, label: `Q${n} ${year}`, months };
}
