// A loopback static file server for download tests: serves a folder in place (never copied) with strong
// ETags and Last-Modified, honours If-None-Match / If-Modified-Since (304) and single `bytes=N-` / `N-M`
// ranges with If-Range (206), lists folders as HTML (like `python -m http.server`; off with listings: false), and injects faults per
// path: answer the first N requests with a status (503, 429 with Retry-After, 404), or send only part of
// the body and then cut the connection, or never answer. Every request is recorded for assertions.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export interface Fault {
  /** Answer the next `times` requests of the path with this status (default forever when times is omitted). */
  status?: number;
  retryAfter?: string;
  /** Instead: send headers and this many body bytes, then destroy the socket. */
  dropAfterBytes?: number;
  /** Instead: accept the request and never answer (the client's timeout must fire). */
  hang?: boolean;
  times?: number;
}

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  status: number;
}

export interface FileServer {
  url: string;
  requests: RecordedRequest[];
  /** Set (replace) the fault for a URL path such as /census-gazetteer-2025/x.txt.gz. */
  fault(urlPath: string, fault: Fault): void;
  clearFaults(): void;
  close(): Promise<void>;
}

function etagOf(st: fs.Stats): string {
  return `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
}

export interface FileServerOptions {
  /** Serve folder listings (default true). */
  listings?: boolean;
  /** Answer every request with `Connection: close` and end the socket after it, like an HTTP/1.0 server. */
  closeConnections?: boolean;
}

export async function startFileServer(root: string, opts: FileServerOptions = {}): Promise<FileServer> {
  const faults = new Map<string, Fault & { used: number }>();
  const requests: RecordedRequest[] = [];
  const rootAbs = path.resolve(root);

  const server = http.createServer((req, res) => {
    if (opts.closeConnections) res.shouldKeepAlive = false;
    const urlPath = new URL(req.url ?? '/', 'http://x').pathname;
    const record = (status: number): void => { requests.push({ path: urlPath, headers: req.headers, status }); };
    const send = (status: number, body = '', headers: http.OutgoingHttpHeaders = {}): void => {
      record(status);
      res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body), ...headers });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
    let rel: string;
    try {
      rel = decodeURIComponent(urlPath);
    } catch {
      return send(400, 'bad path');
    }
    const abs = path.resolve(rootAbs, '.' + rel);
    if (abs !== rootAbs && !abs.startsWith(rootAbs + path.sep)) return send(403, 'outside the root');

    const fault = faults.get(urlPath);
    const active = fault && (fault.times === undefined || fault.used < fault.times) ? fault : undefined;
    if (active) active.used++;
    if (active?.hang) { record(0); return; }
    if (active?.status) return send(active.status, `injected ${active.status}`, active.retryAfter ? { 'retry-after': active.retryAfter } : {});

    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      return send(404, 'not found');
    }
    if (st.isDirectory()) {
      if (opts.listings === false) return send(404, 'no listings');
      if (!urlPath.endsWith('/')) return send(301, '', { location: urlPath + '/' });
      const names = fs.readdirSync(abs).sort();
      const html = `<!DOCTYPE html><html><body><ul>\n${names.map((n) => `<li><a href="${encodeURIComponent(n)}">${n}</a></li>`).join('\n')}\n</ul></body></html>\n`;
      return send(200, html, { 'content-type': 'text/html; charset=utf-8' });
    }

    const etag = etagOf(st);
    const lastModified = new Date(Math.floor(st.mtimeMs / 1000) * 1000).toUTCString();
    const common = { etag, 'last-modified': lastModified, 'accept-ranges': 'bytes' };
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    if (inm !== undefined ? inm.split(',').map((s) => s.trim()).includes(etag) : ims !== undefined && Date.parse(ims) >= Date.parse(lastModified)) {
      record(304);
      res.writeHead(304, common);
      return res.end();
    }

    let start = 0;
    let end = st.size - 1;
    let status = 200;
    const range = req.headers['range'];
    const ifRange = req.headers['if-range'];
    const rangeValid = ifRange === undefined || ifRange === etag || ifRange === lastModified;
    if (range && rangeValid) {
      const m = /^bytes=(\d+)-(\d*)$/.exec(range);
      if (m) {
        start = Number(m[1]);
        end = m[2] ? Math.min(Number(m[2]), st.size - 1) : st.size - 1;
        if (start >= st.size || start > end) return send(416, '', { 'content-range': `bytes */${st.size}` });
        status = 206;
      }
    }
    const length = end - start + 1;
    const headers: http.OutgoingHttpHeaders = { ...common, 'content-type': 'application/octet-stream', 'content-length': length };
    if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${st.size}`;
    record(status);
    res.writeHead(status, headers);
    if (req.method === 'HEAD') return res.end();
    if (active?.dropAfterBytes !== undefined) {
      const n = Math.min(active.dropAfterBytes, length);
      const fd = fs.openSync(abs, 'r');
      const buf = Buffer.alloc(n);
      fs.readSync(fd, buf, 0, n, start);
      fs.closeSync(fd);
      // Cut as soon as the bytes are handed to the kernel: they still reach the client ahead of the close.
      res.write(buf, () => res.socket?.destroy());
      return;
    }
    fs.createReadStream(abs, { start, end }).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    fault(urlPath, f) { faults.set(urlPath, { ...f, used: 0 }); },
    clearFaults() { faults.clear(); },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
