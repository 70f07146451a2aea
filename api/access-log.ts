// The access log: one JSON line per answer (written in batches by api/server.ts), and the error line of an
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

/** The JSON text of a line. An answer's line is concatenated in its fixed field order (JSON.stringify of an object
 *  per request was the server's largest cost of its own): its strings are ones the server made (time, ids,
 *  route names, error codes) or a method node:http parsed as an HTTP token, so none needs escaping. */
export function accessLogText(line: AccessLine | ErrorLine): string {
  if ('level' in line) return JSON.stringify(line);
  const error = line.error === undefined ? '' : `,"error":${text(line.error)}`;
  return `{"time":"${line.time}","request_id":"${line.request_id}","method":${text(line.method)},"route":"${line.route}","status":${line.status},"ms":${line.ms},"key_id":${text(line.key_id)}${error}}`;
}
