// A change asked over a quarter or a month by its short form ("qoq price change seattle", "quarter over quarter",
// "mom price change", "month over month"): written as the window kept (pure). Before (h77ask), each answered that the
// 12-month change does not exist, as if a year's change were asked. A quarter's change is the price index change over
// 3 months; a month's is not kept (the index change is kept over 3 to 60 months, research.md "Windows"), said, and the
// 3 months' given. "mom" only beside a word of price or change ("my mom" is no period).
const QUARTER = /\b(?:qoq|q\/q|quarter[- ]over[- ]quarter|quarter[- ]on[- ]quarter)\b/i;
const MONTH = /\b(?:m\/m|month[- ]over[- ]month|month[- ]on[- ]month)\b|\bmom\b(?=\s+(?:(?:home\s+|house\s+)?prices?\s+)?(?:change|growth|appreciation|increase|decrease|%)\b)|(?<=\b(?:price|prices|change|growth|appreciation)\s+)\bmom\b/i;

/** The question with a quarter's or a month's change written "3 month change", and the reading to say; null if neither. */
export function changeWords(q: string): { text: string; readAs: string } | null {
  const qm = QUARTER.exec(q);
  if (qm) return { text: q.replace(QUARTER, '3 month change'), readAs: `"${qm[0]}" as the price index change over the last 3 months` };
  const mm = MONTH.exec(q);
  if (mm) return { text: q.replace(MONTH, '3 month change'), readAs: `"${mm[0]}": no month-over-month change is kept (the price index change is kept over 3 to 60 months), so the change over the last 3 months is given` };
  return null;
}
