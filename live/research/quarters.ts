// A calendar quarter asked ("Q4 2023", "2023 Q4", "the fourth quarter of 2023", "4th quarter 2023", "4Q23"): read as its three
// months (pure, no imports), answered as calendar years are (year-facts.ts) over those months only. Rules:
// warehouse/docs/research.md "Years".

const ORDINALS: Record<string, number> = { first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, last: 4, final: 4 };

/** The quarter asked as a Years-shaped reading: `months` its first and last month (YYYY-MM); null when none is named. */
export function parseQuarter(q: string): { from: number; to: number; label: string; months: [string, string] } | null {
  const y = '((?:19|20)\\d{2})';
  const a = new RegExp(`\\bq([1-4])\\s*(?:of\\s+|,\\s*)?'?${y}\\b`, 'i').exec(q);
  const b = new RegExp(`\\b${y}\\s*[- ]?\\s*q([1-4])\\b`, 'i').exec(q);
  const c = new RegExp(`\\b(first|second|third|fourth|1st|2nd|3rd|4th|last|final)\\s+quarter\\s+(?:of\\s+)?(?:the\\s+year\\s+)?${y}\\b`, 'i').exec(q);
  // "1Q15", "1Q 2015", "Q1'15", "Q1-15": the quarter first with a year of two digits or four (before, "1Q15" was not read
  // and the latest month answered)
  const d = /\b([1-4])q\s*'?((?:19|20)?\d{2})\b|\bq([1-4])(?:\s*'|-)(\d{2})\b/i.exec(q);
  const yy = (s: string): number => (s.length === 4 ? Number(s) : Number(s) < 50 ? 2000 + Number(s) : 1900 + Number(s));
  const n = a ? Number(a[1]) : b ? Number(b[2]) : c ? ORDINALS[c[1]!.toLowerCase()]! : d ? Number(d[1] ?? d[3]) : 0;
  const year = a ? Number(a[2]) : b ? Number(b[1]) : c ? Number(c[2]) : d ? yy((d[2] ?? d[4])!) : 0;
  if (!n || !year) return null;
  const month = (m: number): string => `${year}-${String(m).padStart(2, '0')}`;
  const months: [string, string] = [month(n * 3 - 2), month(n * 3)];
  return { from: year, to: year, label: `Q${n} ${year}`, months };
}
