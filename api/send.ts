// The one writer of answers: every head and body the server sends is decided here. Content-Type is JSON
// unless the caller names another; Content-Length is the body's bytes, absent on 204 and 304; HEAD, 204
// and 304 send no body. Three writers share these rules: send() on a response (api/answer.ts), the
// export file stream (api/export/files.ts, which writes its own body) and sendOnSocket() for requests
// node:http refused before there was a response (api/app.ts clientError).
import http from 'node:http';
import type net from 'node:net';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Every answer says its Content-Type is meant (no sniffing). */
export const NOSNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;

/** 204 No Content and 304 Not Modified have no body, so no Content-Length either. */
export function hasBody(status: number): boolean {
  return status !== 204 && status !== 304;
}

/** Whether the body goes out: never for HEAD, 204 or 304. */
export function sendsBody(method: string | undefined, status: number): boolean {
  return method !== 'HEAD' && hasBody(status);
}

/** The Content-Length of a body of `bytes`, or nothing for a status without a body. */
export function contentLength(status: number, bytes: number): Record<string, string> {
  return hasBody(status) ? { 'Content-Length': String(bytes) } : {};
}

/** Sends a whole answer: `headers` in their order, then Content-Length; the body unless HEAD, 204 or 304. */
export function send(res: http.ServerResponse, method: string | undefined, status: number, headers: Record<string, string>, body: Buffer | string = ''): void {
  sendOwned(res, method, status, { ...headers }, body);
}

/** send() with a headers object made for this one answer: Content-Length is added to it in place (no copy). */
export function sendOwned(res: http.ServerResponse, method: string | undefined, status: number, headers: Record<string, string>, body: Buffer | string = ''): void {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  if (hasBody(status)) headers['Content-Length'] = String(buf.length);
  res.writeHead(status, headers);
  res.end(sendsBody(method, status) ? buf : undefined);
}

/** Writes a JSON answer straight to a socket and closes it: status line, Content-Type and Content-Length
 *  first, then `headers`, then Connection: close (no Date: node:http has not taken the request). */
export function sendOnSocket(socket: net.Socket, status: number, headers: Record<string, string>, body: string): void {
  const head = { 'Content-Type': JSON_TYPE, ...contentLength(status, Buffer.byteLength(body)), ...headers, Connection: 'close' };
  const lines = Object.entries(head).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${lines}\r\n${hasBody(status) ? body : ''}`);
}
