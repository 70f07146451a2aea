// How the synthetic generator (scripts/generate-synthetic.ts) writes: one CSV file streamed with back-pressure (rows
// buffered 2,000 at a time, so memory stays flat at any --rows), RFC 4180 quoting, ISO dates, rounding.
import fs from 'node:fs';

export class CsvOut {
  private stream: fs.WriteStream;
  private buf: string[] = [];
  constructor(file: string, header: readonly string[]) {
    this.stream = fs.createWriteStream(file);
    this.buf.push(header.join(','));
  }
  async row(values: readonly (string | number | null | undefined)[]): Promise<void> {
    this.buf.push(values.map(cell).join(','));
    if (this.buf.length >= 2000) await this.flush();
  }
  async flush(): Promise<void> {
    if (!this.buf.length) return;
    const ok = this.stream.write(this.buf.join('\n') + '\n');
    this.buf = [];
    if (!ok) await new Promise<void>((resolve) => this.stream.once('drain', resolve));
  }
  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}
function cell(v: string | number | null | undefined): string {
  if (v == null) return '';
  const s = typeof v === 'number' ? String(v) : v;
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
export const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const round = (x: number, d = 0): number => { const f = 10 ** d; return Math.round(x * f) / f; };
