// `reii serve`: node:http over the current build. Drains on close; picks up new builds by itself.
import http from 'node:http';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Settings } from '../warehouse/settings.ts';
import { createApp } from './app.ts';
import { LIVE_MODULES } from './routes.ts';
import { BuildHolder, type LiveRegistry } from './builds.ts';
import { KeyStore, type KeyChecker } from './keys.ts';
import { MemoryLimits, type LimitStore } from './limits.ts';
import { WindowLimiter } from './rate-limit.ts';
import { TrustedProxies } from './client-address.ts';
import { startWebhooks, stopWebhooks } from './webhooks/service.ts'; // issue 10
import { accessLogText, bufferedLines, type AccessLine, type ErrorLine } from './access-log.ts';

export interface RunningServer {
  url: string;
  port: number;
  server: http.Server;
  buildId(): string | null;
  holder: BuildHolder;
  /** The file key store of --state (used when no REII_REDIS_URL is set). */
  keys: KeyStore;
  limits: LimitStore;
  close(): Promise<void>;
}

export interface ServerOptions {
  settings: Readonly<Settings>;
  live?: LiveRegistry;
  accessLog?: (line: AccessLine | ErrorLine) => void;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  anonymous?: { requestsPerMinute: number; failedAuthPer10Min: number };
  /** The clock of rate windows, monthly quotas and access-log times; Date.now unless a test pins it. */
  now?: () => number;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { settings } = opts;
  const log = opts.log ?? ((msg, fields) => process.stderr.write(JSON.stringify({ time: new Date().toISOString(), msg, ...fields }) + '\n'));
  const buffered = opts.accessLog ? null : bufferedLines(process.stdout);
  const accessLog = opts.accessLog ?? ((line: AccessLine | ErrorLine) => buffered!.write(accessLogText(line)));
  const holder = new BuildHolder({ settings, live: opts.live ?? LIVE_MODULES, log });
  await holder.start();
  const keys = new KeyStore(settings.state);
  let checker: KeyChecker = keys;
  let limits: LimitStore;
  if (settings.redisUrl) {
    // Several instances: keys, per-minute windows and monthly counts live in Redis (api/redis.ts); the last
    // registry and the counts not yet in Redis are kept in the state folder for a start while Redis is down.
    // Loaded here only: a single server does not carry the Redis client (ioredis) in its memory.
    const [{ RedisKeys }, { RedisLimits }] = await Promise.all([import('./redis-keys.ts'), import('./redis-limits.ts')]);
    const redisKeys = new RedisKeys(settings.redisUrl, settings.state);
    await redisKeys.watch(250);
    checker = redisKeys;
    const redisLimits = new RedisLimits(settings.redisUrl, settings.state);
    if (!(await redisLimits.ready())) log('redis unreachable at start: serving with per-instance limits until it connects', { url: settings.redisUrl });
    limits = redisLimits;
  } else {
    keys.watch(250);
    limits = new MemoryLimits(settings.state);
  }
  const app = createApp({ holder, keys: checker, limits, anonLimiter: new WindowLimiter(60_000), authFailures: new WindowLimiter(600_000), accessLog, anonymous: opts.anonymous, trustedProxies: new TrustedProxies(settings.trustedProxies), refusalHoldMs: settings.refusalHoldMs, now: opts.now });
  const timeout = settings.requestTimeoutMs;
  const server = http.createServer({
    requestTimeout: timeout,
    headersTimeout: Math.min(timeout, 10_000),
    // node:http checks the two timeouts above only this often (30 s by default): check at least every
    // second, so a slow client is cut off within a second of its timeout, not up to 30 s late.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeout / 4))),
    maxHeaderSize: 16 * 1024,
    // A Host-less HTTP/1.1 request is a 400 of the contract (JSON, request id, access-log line: api/app.ts), not
    // node's bare 400 with no body (review 15).
    requireHostHeader: false,
  }, (req, res) => {
    // While draining, an answer closes its connection: a client that keeps a connection busy cannot hold the
    // drain open (the REII_DRAIN_TIMEOUT_MS backstop below would then cut whatever is still streaming).
    if (draining) res.shouldKeepAlive = false;
    app(req, res);
  });
  let draining = false;
  server.keepAliveTimeout = 5000;
  // 431 / 408 / malformed requests: answered by the app with the usual headers and access-log line.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => app.clientError(err, socket as net.Socket));
  // Node's own answers would escape the contract: a bare 417 with an empty body, and CONNECT dropped unanswered.
  server.on('checkExpectation', (req, res) => app.expectationFailed(req, res));
  // node takes any Expect holding the token 100-continue ("100-continue-please") as 100-continue and sends 100
  // Continue: only the exact expectation is (RFC 9110 10.1.1), any other is a 417 (review 15).
  server.on('checkContinue', (req, res) => {
    if (String(req.headers['expect']).trim().toLowerCase() !== '100-continue') { app.expectationFailed(req, res); return; }
    if (draining) res.shouldKeepAlive = false;
    res.writeContinue();
    app(req, res);
  });
  server.on('connect', (req, socket) => app.connect(req, socket as net.Socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const webhooks = await startWebhooks({ settings, holder, server, log }); // issue 10: outbox delivery + build events
  const port = (server.address() as AddressInfo).port;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    holder,
    keys,
    limits,
    buildId: () => holder.get()?.buildId ?? null,
    close() {
      // Stop accepting, let in-flight requests finish, then persist usage.
      closing ??= new Promise<void>((resolve) => {
        draining = true;
        app.releaseHeld(); // refusals held back (api/refusals.ts) go out now
        // Answers already under way when the drain began were promised keep-alive; close each of their
        // connections as soon as it falls idle (checked every 50 ms), not after the 5 s keep-alive timeout.
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => { clearInterval(idle); resolve(); });
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), settings.drainTimeoutMs).unref();
      }).then(async () => {
        await stopWebhooks(webhooks); // issue 10
        buffered?.close();
        checker.close();
        if (checker !== keys) keys.close();
        await limits.close();
        await holder.close();
      });
      return closing;
    },
  };
}
