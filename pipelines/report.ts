// The human-readable build report (report.html beside manifest.json), from the manifest alone.
import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from './manifest.ts';
import { readReportSections } from '../warehouse/build-folder.ts';
import { previousManifest, renderCharts } from './report-charts.ts';

const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function table(headers: string[], rows: unknown[][]): string {
  return `<table><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</table>`;
}

interface ReportCheck { name: string; description: string; severity?: string; status: string; failing_rows: number; sample?: unknown[]; reason?: string | null; seconds?: number }

/** The data tests: a summary table (failed first, then warnings), then each failing or warning check's sample of offending rows. */
function checksSection(checks: ReportCheck[]): string {
  const order = ['fail', 'warn', 'pass', 'skipped'];
  const sorted = [...checks].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status) || a.name.localeCompare(b.name));
  const count = (s: string): number => checks.filter((c) => c.status === s).length;
  const summary = `<p>${checks.length} checks: ${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warnings, ${count('skipped')} skipped.
A failed check (severity error) stops publication; a warning is shown here and never blocks.</p>`;
  const rows = sorted.map((c) => [c.name, c.severity ?? '', c.status, c.failing_rows, c.seconds ?? '', c.status === 'skipped' ? `${c.description} (skipped: ${c.reason ?? 'a table is missing'})` : c.description]);
  const samples = sorted.filter((c) => (c.status === 'fail' || c.status === 'warn') && c.sample?.length).map((c) => {
    const sample = c.sample as Record<string, unknown>[];
    const headers = [...new Set(sample.flatMap((r) => Object.keys(r)))];
    const shown = sample.length < c.failing_rows ? `the first ${sample.length} of ${c.failing_rows} rows` : `${c.failing_rows} row${c.failing_rows === 1 ? '' : 's'}`;
    const cell = (v: unknown): unknown => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
    return `<h3 id="check-${esc(c.name)}">${esc(c.name)}: ${c.status === 'fail' ? 'failed' : 'warning'} (${shown})</h3><p>${esc(c.description)}</p>${table(headers, sample.map((r) => headers.map((h) => cell(r[h]))))}`;
  });
  return `${summary}${table(['check', 'severity', 'status', 'failing rows', 'seconds', 'what must hold'], rows)}${samples.join('\n')}`;
}

/** meta.rejects in short: rows per source and rule, then the files with rows that broke the contract (sources/rejects.ts). */
function rejectsSection(r: Manifest['rejects']): string {
  const contract = r.by_source.filter((x) => x.breaks_contract).reduce((a, x) => a + x.rows, 0);
  const pct = (x: number): string => `${(x * 100).toFixed(2)}%`;
  return `<p>${r.total} rows rejected: ${contract} broke a row contract (rule and column in <code>meta.rejects</code>), ${r.total - contract} were dropped for another documented reason (merged, duplicate, out of scope).</p>`
    + table(['source', 'rule', 'breaks the contract', 'rows'], r.by_source.map((x) => [x.source, x.rule, x.breaks_contract ? 'yes' : 'no', x.rows]))
    + ((r.by_file ?? []).length
      ? `<h3>Files with rows that broke the contract</h3>${table(['source', 'file', 'rows', 'rejected', 'share', 'top rules'],
        (r.by_file ?? []).map((f) => [f.source, f.file, f.rows, f.rejected, pct(f.share), f.top.map((t) => `${t.rule}${t.column ? ` (${t.column})` : ''}: ${t.rows}`).join(', ')]))}`
      : '');
}

/** What changed against the previous published build: rows per table, rejects, shards, stage seconds. */
function diffSection(dir: string, m: Manifest): string {
  const prev = previousManifest(dir, m);
  if (!prev) return '<p>No earlier published build in this artifacts folder to compare with.</p>';
  const before = new Map(prev.tables.map((t) => [t.name, t.rows]));
  const now = new Map(m.tables.map((t) => [t.name, t.rows]));
  const names = [...new Set([...before.keys(), ...now.keys()])].sort();
  const changed = names.filter((n) => before.get(n) !== now.get(n)).map((n) => {
    const a = before.get(n);
    const b = now.get(n);
    return [n, a ?? 'new', b ?? 'gone', a !== undefined && b !== undefined ? b - a : '', a && b !== undefined ? `${(((b - a) / a) * 100).toFixed(1)}%` : ''];
  });
  const totals = [['rejected rows', prev.rejects.total, m.rejects.total], ['shards', prev.shards.total, m.shards.total], ['peak RSS (MB)', prev.peak_rss_mb, m.peak_rss_mb],
    ...m.stages.map((s) => [`stage ${s.name} (s)`, prev.stages.find((p) => p.name === s.name)?.seconds ?? '', s.seconds])];
  return `<p>Against build ${esc(prev.build_id)} (as of ${esc(prev.as_of)}).</p>${table(['measure', 'previous', 'this build'], totals)}`
    + (changed.length ? `<h3>Tables whose row count changed (${changed.length} of ${names.length})</h3>${table(['table', 'previous', 'this build', 'change', 'change %'], changed)}` : '<p>Every table has the same row count.</p>');
}

function statusLine(m: Manifest, failedChecks: string[]): string {
  if (m.status === 'published') return 'published';
  if (m.status === 'partial') return `<strong>not published: stopped after stage ${esc(m.stages.at(-1)?.name ?? '')} (--until)</strong>`;
  if (m.status === 'failed') return `<strong>not published: ${esc(m.failure?.message ?? 'a stage failed')}</strong>`;
  return `<strong>not published: data checks failed (${esc(failedChecks.join(', '))})</strong>`;
}

export async function writeReport(dir: string, m: Manifest): Promise<void> {
  const sources = m.sources as { id: string; present: boolean; files: { file: string; rows: number | null }[]; rejected_rows: number; licence: string; vintage?: string }[];
  const checks = m.checks as ReportCheck[];
  const failedChecks = checks.filter((c) => c.status === 'fail').map((c) => c.name);
  const warnings = checks.filter((c) => c.status === 'warn').length;
  const extra = readReportSections(dir);
  const steps = m.stages.flatMap((st) => ((st.steps ?? []) as { step: string; seconds: number; peak_rss_mb?: number }[]).map((x) => ({ stage: st.name, ...x })));
  const slowest = steps.sort((a, b) => b.seconds - a.seconds).slice(0, 15);
  const charts = await renderCharts(dir, m, extra);
  const html = `<!doctype html><meta charset="utf-8"><title>Build ${esc(m.build_id)}</title>
<style>body{font:14px system-ui;margin:2em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
figure.chart{margin:1.5em 0}figure.chart figcaption{font-weight:600;margin-bottom:.4em}nav a{margin-right:1em}</style>
<h1>Build ${esc(m.build_id)}</h1>
<p>${statusLine(m, failedChecks)}${warnings ? ` · ${warnings} check warning${warnings === 1 ? '' : 's'}` : ''} · as of ${esc(m.as_of)} · built ${esc(m.built_at)} · ${m.shards.total} shards · ${m.rejects.total} rejected rows · peak RSS ${m.peak_rss_mb} MB</p>
<nav>${charts.map((c) => `<a href="#chart-${c.id}">${esc(c.title.split(':')[0])}</a>`).join('')}</nav>
<h2>Charts</h2>
${charts.map((c) => `<figure class="chart" id="chart-${c.id}"><figcaption>${esc(c.title)}</figcaption>${c.svg}</figure>`).join('\n')}
<h2>Compared with the previous build</h2>${diffSection(dir, m)}
<h2>Stages</h2>${table(['stage', 'seconds'], m.stages.map((s) => [s.name, s.seconds]))}
<h2>Slowest steps</h2>${table(['stage', 'step', 'seconds', 'peak RSS (MB)'], slowest.map((x) => [x.stage, x.step, x.seconds, x.peak_rss_mb ?? '']))}
<h2>Sources</h2>${table(['source', 'present', 'vintage', 'files', 'rows', 'rejected', 'licence'], sources.map((s) => [s.id, s.present ? 'yes' : 'absent', s.vintage ?? '', s.files.length, s.files.reduce((a, f) => a + (f.rows ?? 0), 0), s.rejected_rows, s.licence]))}
<h2>Rejected rows</h2>${rejectsSection(m.rejects)}
<h2>Data checks</h2>${checksSection(checks)}
<h2>Shards</h2>${table(['family', 'files'], Object.entries(m.shards.by_family))}
${extra.map((s) => `<h2>${esc(s.title)}</h2>${table(s.headers, s.rows)}`).join('\n')}
<h2>Attribution</h2><ul>${m.attribution.map((a) => `<li>${esc(a)}</li>`).join('')}</ul>
`;
  fs.writeFileSync(path.join(dir, 'report.html'), html);
}
