// A source CSV file read as bytes, before DuckDB sees it (csv-load.ts): its first bytes checked (an empty, UTF-16 or
// binary file fails the stage naming it), the lines whose quotes do not pair up found, and a copy written with each of
// those lines replaced by a marker line the CSV parser rejects on that same line.
import fs from 'node:fs';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import type { StageContext } from '../../warehouse/context.ts';
import { StageError } from '../../warehouse/errors.ts';
import { REJECT_VALUE_CHARS } from './rejects.ts';

/** The one-field line that stands in for a line with an unclosed quote (loadContractCsv). */
export const MARKER = '__reii_unclosed_quote_';

const HEAD_BYTES = 64 * 1024;

/** The file's bytes (gunzipped for .gz); `close` releases the file when the reader stops early. */
function openBytes(file: string): { stream: AsyncIterable<Buffer>; close: () => void } {
  const raw = fs.createReadStream(file);
  if (!file.endsWith('.gz')) return { stream: raw, close: () => raw.destroy() };
  const gunzip = createGunzip();
  raw.on('error', (err) => gunzip.destroy(err));
  return { stream: raw.pipe(gunzip), close: () => { gunzip.destroy(); raw.destroy(); } };
}

/** The first bytes of a file (decompressed); fails the stage for an empty, UTF-16 or binary file, naming it. */
export async function inspectFile(ctx: StageContext, file: string): Promise<Buffer> {
  const rel = path.relative(ctx.paths.sources, file);
  const chunks: Buffer[] = [];
  let size = 0;
  const input = openBytes(file);
  try {
    for await (const chunk of input.stream) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= HEAD_BYTES) break;
    }
  } catch (err) {
    throw new StageError('sources', rel, err);
  } finally {
    input.close();
  }
  const head = Buffer.concat(chunks).subarray(0, HEAD_BYTES);
  const fail = (why: string): never => { throw new StageError('sources', rel, new Error(why)); };
  if (head.length === 0) fail('the file is empty (0 bytes): a CSV file needs at least its header line');
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    fail(`the file is UTF-16 (byte-order mark ${head[0] === 0xff ? 'FF FE' : 'FE FF'}): save it as UTF-8 (CSV UTF-8)`);
  }
  if (head.includes(0)) fail('the file has NUL bytes: it is UTF-16 without a byte-order mark, or not text; save it as UTF-8 (CSV UTF-8)');
  return head;
}

/**
 * Lines whose double quotes do not pair up (an unclosed quote), with their first characters. A canonical record is
 * one line (a value may not hold a line break), so such a line is broken on its own: left to the CSV parser it would
 * swallow the lines after it, up to the next quote, into one value.
 */
export async function oddQuoteLines(file: string): Promise<Map<number, string>> {
  const odd = new Map<number, string>();
  let line = 1;
  let parity = 0;
  let lineHead: Buffer[] = [];
  let headLen = 0;
  for await (const chunk of openBytes(file).stream) {
    let pos = 0;
    let nextQuote = chunk.indexOf(0x22);
    while (pos < chunk.length) {
      const nl = chunk.indexOf(0x0a, pos);
      const end = nl === -1 ? chunk.length : nl;
      while (nextQuote !== -1 && nextQuote < end) { parity ^= 1; nextQuote = chunk.indexOf(0x22, nextQuote + 1); }
      if (headLen < REJECT_VALUE_CHARS * 4) { const part = chunk.subarray(pos, Math.min(end, pos + REJECT_VALUE_CHARS * 4)); lineHead.push(part); headLen += part.length; }
      if (nl === -1) break;
      if (parity) odd.set(line, Buffer.concat(lineHead).toString('utf8').replace(/\r$/, ''));
      line++; parity = 0; lineHead = []; headLen = 0; pos = nl + 1;
    }
  }
  if (parity) odd.set(line, Buffer.concat(lineHead).toString('utf8').replace(/\r$/, ''));
  return odd;
}

/**
 * The empty lines ('' or a lone CR) outside a quoted value: DuckDB's CSV reader skips them without a reject, so
 * csv-load.ts counts them to keep each row's line its line in the file (Philadelphia's OPA sample has a lone CR on line
 * 5266: every row after it cited the line before its own). Lines are counted as DuckDB counts them, a line break inside
 * a quoted value not ending one.
 */
export async function blankLines(file: string): Promise<number[]> {
  const blanks: number[] = [];
  let line = 1;
  let quoted = false;
  let width = 0; // bytes of the current line other than a CR
  for await (const chunk of openBytes(file).stream) {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === 0x22) { quoted = !quoted; width++; }
      else if (b === 0x0a) { if (!quoted) { if (width === 0) blanks.push(line); line++; width = 0; } }
      else if (b !== 0x0d) width++;
    }
  }
  return blanks;
}

/** A copy of the file (decompressed) with each given line replaced by a one-field marker the parser rejects on that same line. */
export async function withMarkers(src: string, dest: string, lines: ReadonlySet<number>): Promise<void> {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const out = fs.createWriteStream(dest);
  const write = (b: Buffer | string): Promise<void> => new Promise((resolve, reject) => {
    if (out.write(b)) resolve(); else { out.once('drain', resolve); out.once('error', reject); }
  });
  let line = 1;
  let skipping = lines.has(1);
  let lastByte = -1;
  if (skipping) await write(`${MARKER}1__`);
  for await (const chunk of openBytes(src).stream) {
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(0x0a, pos);
      const end = nl === -1 ? chunk.length : nl;
      if (!skipping) await write(chunk.subarray(pos, nl === -1 ? end : nl + 1));
      if (end > pos) lastByte = chunk[end - 1]!;
      if (nl === -1) break;
      if (skipping) await write(lastByte === 0x0d ? '\r\n' : '\n');
      line++; pos = nl + 1; lastByte = -1;
      skipping = lines.has(line);
      if (skipping) await write(`${MARKER}${line}__`);
    }
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}
