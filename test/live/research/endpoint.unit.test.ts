// Unit tests of the research endpoint's LLM rephrase option (live/research/endpoint.ts): the guard that rejects a
// rephrase (numbersIn, acceptRephrase, rephraseProblem) and the options read from the settings (llmFromSettings). The
// rephrase against a fake model on loopback: rephrase.test.ts; the rules: warehouse/docs/research.md.
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../warehouse/settings.ts';
import { acceptRephrase, llmFromSettings, numbersIn, rephraseProblem } from '../../../live/research/endpoint.ts';

describe('optional LLM rephrase (fake OpenAI-compatible server on loopback)', () => {
  /** an endpoint URL as the settings hold it (no server is called here) */
  const url = 'http://127.0.0.1:9/v1/chat/completions';

  it('number and term guard', () => {
    expect([...numbersIn('3 days, $1,250 and 2026-11-21')]).toEqual(['3', '1250', '2026', '11', '21']);
    expect(acceptRephrase('Texas: 3 days.', 'notice 3 days', 'Texas gives 3 days.', 'quick')).toBe(true);
    expect(acceptRephrase('Texas: 3 days.', 'notice 3 days', 'Texas gives 4 days.', 'quick')).toBe(false);
    expect(acceptRephrase('Texas: 3 days.', 'notice 3 days', 'Texas gives a few days.', 'quick')).toBe(false);
    expect(rephraseProblem('Texas: 3 days. Not legal advice.', '', 'Texas: 3 days.', 'quick')).toMatch(/caveat/);
    expect(rephraseProblem('Rate 18% (marked unverified).', '', 'Rate 18%.', 'quick')).toMatch(/uncertainty/);
    expect(rephraseProblem('Rate 18% (marked unverified).', '', 'Rate 18%; sources conflict.', 'quick')).toBeNull();
    expect(rephraseProblem('See RPAPL Art. 13.', '', 'See Article 13.', 'deep', { citations: ['RPAPL Art. 13'] })).toMatch(/citation/);
    expect(rephraseProblem('See RPAPL Art. 13.', '', 'See Article 13.', 'quick', { citations: ['RPAPL Art. 13'] })).toBeNull();
    expect(rephraseProblem('Texas is non-judicial.', '', 'Texas is judicial.', 'quick')).toMatch(/non-judicial/);
    expect(rephraseProblem('Texas is judicial.', '', 'Texas is non-judicial.', 'quick')).toMatch(/judicial/);
    expect(rephraseProblem('Iowa sells liens.', '', 'Iowa sells deeds.', 'quick')).toMatch(/lien/);
    expect(rephraseProblem('Texas uses a hybrid system.', '', 'Texas uses a mixed system.', 'quick')).toMatch(/hybrid/);
    expect(rephraseProblem('Texas: 3 days.', '', 'Oklahoma: 3 days.', 'quick', { places: ['Texas', 'Oklahoma'] })).toMatch(/Texas/);
  });

  it('llmFromSettings: null without REII_LLM_URL, the endpoint and options with it', () => {
    expect(llmFromSettings(loadSettings({}, {}))).toBeNull();
    expect(llmFromSettings(loadSettings({}, { REII_LLM_URL: '' }))).toBeNull();
    expect(llmFromSettings(loadSettings({}, { REII_LLM_URL: url, REII_LLM_MODEL: 'm', REII_LLM_KEY: 'k', REII_LLM_TIMEOUT_MS: '900' }))).toEqual({ url, model: 'm', key: 'k', timeoutMs: 900 });
    expect(llmFromSettings(loadSettings({}, { REII_LLM_URL: url }))).toEqual({ url, model: 'default', key: null, timeoutMs: 4000 });
  });
});
