// The kinds a list of states asks for ("which states are tax deed states", "judicial foreclosure states", "states with
// rent control"), by the topic asked (intent.ts). Pure. Rules: warehouse/docs/research.md "Intents".
import type { Intent } from './intent.ts';

/** The kinds a list of states asks for, by the topic asked: a tax sale type, a foreclosure type, or where rent control
 *  can apply (a statewide cap, or local rent control the state does not preempt); null when none is named. */
export function parseCategory(q: string, intents: Intent[]): string[] | null {
  if (intents.includes('tax_sale')) {
    if (/\bhybrid\b/.test(q)) return ['hybrid'];
    const deed = /\bdeeds?\b/.test(q), lien = /\bliens?\b/.test(q);
    if (deed !== lien) return [deed ? 'deed' : 'lien'];
    // both named ("lien or deed states"): every state of either kind, each with its kind
    if (deed && lien) return ['lien', 'deed', 'hybrid'];
  }
  if (intents.includes('foreclosure')) {
    if (/non-?judicial|power of sale/.test(q)) return ['non-judicial'];
    if (/\bjudicial\b/.test(q)) return ['judicial'];
  }
  if (intents.includes('rent_control') && /rent control|rent stabiliz|rent caps?\b|caps? on rent/.test(q)) {
    return /statewide|state-wide|state wide/.test(q) ? ['statewide'] : ['statewide', 'local'];
  }
  return null;
}
