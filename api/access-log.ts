// The access log: one JSON line per answer (written in batches by bufferedLines), and the error line of an
// answer that failed inside the server (500).

/** One answer: its fields always in this order; `error` only on answers node:http refused before the handler. */
export type AccessLine = {
  time: string;
  request_id: string;
  method: string | null;
  route: string;
  status: number;
  ms: number | null;
  key_id: string | null;
  error?: string | null;
};

/** A failure inside the server (the answer is a 500 whose message names the request id). */
export type ErrorLine = { level: 'error'; request_id: string; error: string };

const text = (v: string | null): string => (v === null ? 'null' : `"${v}"`);

// Preformatted parts of an answer's line: the time's opening (one per millisecond) and the method and route
// (one per route and method; both strings are the server's own, so a lookup hashes nothing new).
let timeOf = '';
let timeHead = '';
const routeParts = new Map<string, Map<string | null, string>>();
function routePart(method: string | null, route: string): string {
  let byMethod = routeParts.get(route);
  if (!byMethod) {
    if (routeParts.size >= 1000) routeParts.clear(); // bounded: route names come from the route table
    routeParts.set(route, (byMethod = new Map()));
  }
  let part = byMethod.get(method);
  if (part === undefined) {
    if (byMethod.size >= 64) byMethod.clear(); // methods are HTTP tokens any client may send
    byMethod.set(method, (part = `","method":${text(method)},"route":"${route}","status":`));
  }
  return part;
}

/** The JSON text of a line. An answer's line is concatenated in its fixed field order from preformatted parts
 *  (JSON.stringify of an object per request was the server's largest cost of its own): its strings are ones the
 *  server made (time, ids, route names, error codes) or a method node:http parsed as an HTTP token, so none
 *  needs escaping. */
export function accessLogText(line: AccessLine | ErrorLine): string {
  if ('level' in line) return JSON.stringify(line);
  if (line.time !== timeOf) { timeOf = line.time; timeHead = `{"time":"${line.time}","request_id":"`; }
  const error = line.error === undefined ? '}' : `,"error":${text(line.error)}}`;
  return timeHead + line.request_id + routePart(line.method, line.route) + line.status + ',"ms":' + line.ms + ',"key_id":' + (line.key_id === null ? 'null' : `"${line.key_id}"`) + error;
}

/** Bytes of one batch of lines. */
const BATCH_BYTES = 64 * 1024;

/** Lines gathered and written every `everyMs` or 64 KiB: one write per batch, not per request. Each line is
 *  copied into the batch's buffer as it comes, so no line's string outlives its request: kept in a list until
 *  the batch was written, lines (strings of many parts) lived through young-generation collections and were
 *  copied and joined again, most of the log's cost per request. */
export function bufferedLines(out: NodeJS.WritableStream, everyMs = 50): { write(line: string): void; close(): void } {
  let buf = Buffer.allocUnsafe(BATCH_BYTES);
  let used = 0;
  const flush = (): void => {
    if (used === 0) return;
    out.write(buf.subarray(0, used)); // the stream keeps this buffer until written: the next batch takes a new one
    buf = Buffer.allocUnsafe(BATCH_BYTES);
    used = 0;
  };
  const timer = setInterval(flush, everyMs);
  timer.unref();
  return {
    write(line) {
      // At most 3 UTF-8 bytes per UTF-16 unit, and the newline: a line that may not fit starts a new batch.
      const most = line.length * 3 + 1;
      if (used + most > BATCH_BYTES) {
        flush();
        if (most > BATCH_BYTES) { out.write(`${line}\n`); return; } // a long error message: a write of its own
      }
      used += buf.write(line, used);
      buf[used++] = 10;
    },
    close() {
      clearInterval(timer);
      flush();
    },
  };
}
