// Review 6 #17: warehouse/docs/valuation.md's back-test table left out rows the served scorecard has (typical / low,
// Sacramento) while saying they were left out. The doc lists exactly the rows (source, subject mode, tier) of the
// build's scorecard.json; its figures are the reference build's, so only the rows are compared here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { REPO } from '../../helpers/paths.ts';

describe('valuation.md back-test table', () => {
  it('has one row per scorecard accuracy row, in the same order', () => {
    const doc = fs.readFileSync(path.join(REPO, 'warehouse', 'docs', 'valuation.md'), 'utf8').split('\n');
    const start = doc.indexOf('| source | subject | tier | n | MdAPE % | PPE10 % | PPE20 % | coverage % | width % |');
    expect(start).toBeGreaterThan(0);
    const rows: string[] = [];
    for (let i = start + 2; doc[i]?.startsWith('|'); i++) rows.push(doc[i]!.split('|').slice(1, 4).map((c) => c.trim()).join(' '));
    const sc = JSON.parse(fs.readFileSync(path.join(buildDir(), 'live', 'valuation', 'scorecard.json'), 'utf8')) as { accuracy: { source: string; subject: string; confidence: string }[] };
    expect(rows).toEqual(sc.accuracy.map((r) => `${r.source} ${r.subject} ${r.confidence}`));
  });
});
