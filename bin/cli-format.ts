// Printing rows for people (an aligned table) and for tools (CSV).

export function formatTable(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(no rows)\n';
  const cols = Object.keys(rows[0]!);
  const cell = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const widths = cols.map((c) => Math.min(60, Math.max(c.length, ...rows.map((r) => cell(r[c]).length))));
  const fmt = (vals: string[]): string => vals.map((v, i) => v.slice(0, widths[i]).padEnd(widths[i]!)).join('  ').trimEnd();
  return [fmt(cols), fmt(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => fmt(cols.map((c) => cell(r[c]))))].join('\n') + '\n';
}

export function formatCsv(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '';
  const cols = Object.keys(rows[0]!);
  const q = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return [cols.join(','), ...rows.map((r) => cols.map((c) => q(r[c])).join(','))].join('\n') + '\n';
}

