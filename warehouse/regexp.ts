// Text matched literally inside a regular expression: every regex metacharacter escaped. The one helper the server
// and the live engines use where a place or name from the data is written into a pattern.
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
