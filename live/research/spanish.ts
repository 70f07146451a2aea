// Spanish questions (pure, no imports): the service reads English, so the common words of a Spanish question about what
// it keeps (precio, mediana, venta, desalojo, aviso, días, depósito ...) are read as their English words, said with the
// answer; a Spanish question with none of them is said to need English (endpoint answer: `spanishOnly`). Before, "¿Cuántos
// días de aviso necesito para desalojar en Florida?" was answered "I don't have data that answers this question".
// Rules: warehouse/docs/research.md "Intents".

/** Spanish words read, in order (phrases first), with the English read for them. */
const WORDS: [RegExp, string][] = [
  [/\bamigables? (?:con|para) (?:los |el )?(?:propietarios|arrendadores|caseros)\b/g, 'landlord friendly'],
  [/\bdep[oó]sitos? (?:de )?(?:seguridad|garant[ií]a)\b|\bfianza\b/g, 'security deposit'],
  [/\bejecuci[oó]n(?:es)? hipotecarias?\b|\bembargos?\b/g, 'foreclosure'],
  [/\bcontrol de (?:alquileres|alquiler|rentas?)\b/g, 'rent control'],
  [/\bd[ií]as de aviso\b|\baviso de d[ií]as\b/g, 'days notice'],
  [/\bprecio de venta\b/g, 'sale price'],
  [/\bdesalojar\b|\bdesalojos?\b|\bdesahucios?\b/g, 'eviction'],
  [/\bavisos?\b|\bnotificaci[oó]n\b/g, 'notice'],
  [/\bd[ií]as\b/g, 'days'],
  [/\bcu[aá]ntos?\b|\bcu[aá]ntas?\b/g, 'how many'],
  [/\bprecios?\b/g, 'price'],
  [/\bmediana\b|\bmediano\b/g, 'median'],
  [/\bventas?\b/g, 'sales'],
  [/\bcasas?\b|\bviviendas?\b/g, 'homes'],
  [/\binversionistas?\b|\binversores?\b/g, 'investors'],
  [/\bpropietarios?\b|\barrendadores?\b|\bcaseros?\b/g, 'landlord'],
  [/\binquilinos?\b|\barrendatarios?\b/g, 'tenant'],
  [/\balquiler(?:es)?\b|\brentas?\b/g, 'rent'],
  [/\bestados?\b/g, 'state'],
  [/\bes\b/g, 'is'],
];

/** A question written in Spanish: an opening ¿ or ¡, or three or more different common Spanish words, function words
 *  written in lower case (a place name's "Los Angeles", "La Jolla", "Del Mar" is capitalised: no Spanish question) or
 *  the words read (precio, mediana, venta ...). */
export function isSpanish(q: string): boolean {
  if (/[¿¡]/.test(q)) return true;
  const fn = new Set(q.match(/(?<![\p{L}])(el|la|los|las|de|del|en|para|un|una|cu[aá]nto|cu[aá]ntos|qu[eé]|c[oó]mo|necesito|puedo)(?![\p{L}])/gu) ?? []);
  const content = WORDS.filter(([re, en]) => en !== 'is' && new RegExp(re.source).test(q.toLowerCase())).length;
  return fn.size + content >= 3;
}

/** The question with the Spanish words read as English, and the words read (none: not Spanish, or none known). */
export function fromSpanish(q: string): { text: string; read: string[] } {
  if (!isSpanish(q)) return { text: q, read: [] };
  let text = q.toLowerCase().replace(/[¿¡]/g, '');
  const read: string[] = [];
  for (const [re, en] of WORDS) {
    text = text.replace(re, (m) => {
      if (en !== 'is' && !read.includes(`"${m}" as "${en}"`)) read.push(`"${m}" as "${en}"`);
      return en;
    });
  }
  // place names keep their capitals (Florida, Seattle): the words read are lower-case, the rest of the question as asked
  return read.length ? { text: restoreCase(q.replace(/[¿¡]/g, ''), text), read } : { text: q, read: [] };
}

/** The read text with the words it kept from the question in their own case. */
function restoreCase(original: string, read: string): string {
  const cased = new Map(original.split(/\s+/).map((w) => [w.toLowerCase(), w]));
  return read.split(/(\s+)/).map((w) => cased.get(w) ?? w).join('');
}

/** What the answer says of a Spanish question: the words read, or that the service reads English. */
export const SPANISH_READ = (read: string[]): string => `the Spanish ${read.join(', ')} (the service reads English; the other words are not read)`;
export const SPANISH_ONLY = 'The service reads questions in English: none of the words of this Spanish question is one it reads; ask in English (for example "median sale price in Seattle" or "eviction notice in Florida")';
