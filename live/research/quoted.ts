// The words of a question a reading quotes ("Reading "Kensington (19134)": zip 19134 is in ..."), with their brackets
// balanced: a span read from a place's first word to a zip's last digit left its closing bracket out ("Kensington
// (19134", review 29). Pure.

const depth = (t: string): number => (t.match(/\(/g)?.length ?? 0) - (t.match(/\)/g)?.length ?? 0);

/** The question's words from `start` to `end`, trimmed, with a bracket they open or close taken with its partner just
 *  outside them ("Kensington (19134" -> "Kensington (19134)", "19134) Kensington" -> "(19134) Kensington"); a bracket
 *  with no partner there is left out rather than left open. */
export function quoted(q: string, start: number, end: number): string {
  let s = start, e = end;
  if (depth(q.slice(s, e)) > 0) e += /^\s*\)/.exec(q.slice(e))?.[0].length ?? 0;
  if (depth(q.slice(s, e)) < 0) s -= /\(\s*$/.exec(q.slice(0, s))?.[0].length ?? 0;
  const t = q.slice(s, e).trim();
  return depth(t) === 0 ? t : t.replace(/\s*[()]\s*/g, ' ').trim();
}
