// Standard Webhooks v1 signing (standard-webhooks/standard-webhooks spec/standard-webhooks.md):
//   webhook-id: the message id (the same on every retry), webhook-timestamp: Unix seconds,
//   webhook-signature: "v1,<base64 HMAC-SHA256(key, `${id}.${timestamp}.${body}`)>", key = base64-decoded
//   part of the secret after "whsec_". verify() is what a receiver runs (documented in warehouse/docs/webhooks.md).
import crypto from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: 24 random bytes, base64, prefixed whsec_. */
export function newSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(24).toString('base64');
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('webhook secrets start with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

export function sign(secret: string, msgId: string, timestamp: number, body: string): string {
  const mac = crypto.createHmac('sha256', secretKey(secret)).update(`${msgId}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one delivery attempt. */
export function signedHeaders(secret: string, msgId: string, body: string, now = Date.now()): Record<string, string> {
  const ts = Math.floor(now / 1000);
  return { 'webhook-id': msgId, 'webhook-timestamp': String(ts), 'webhook-signature': sign(secret, msgId, ts, body) };
}

/**
 * Receiver-side verification: the timestamp within `toleranceSec` of now, and one of the space-separated
 * `v1,` signatures equal (constant time) to the expected one. Returns a reason on failure.
 */
export function verify(secret: string, headers: Record<string, string | string[] | undefined>, body: string, opts: { now?: number; toleranceSec?: number } = {}): { ok: true } | { ok: false; reason: string } {
  const h = (n: string): string | undefined => { const v = headers[n]; return Array.isArray(v) ? v[0] : v; };
  const id = h('webhook-id');
  const ts = h('webhook-timestamp');
  const sigs = h('webhook-signature');
  if (!id || !ts || !sigs) return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature' };
  if (!/^\d+$/.test(ts)) return { ok: false, reason: 'webhook-timestamp is not an integer' };
  const now = Math.floor((opts.now ?? Date.now()) / 1000);
  if (Math.abs(now - Number(ts)) > (opts.toleranceSec ?? 300)) return { ok: false, reason: 'timestamp outside the tolerance' };
  const expected = Buffer.from(sign(secret, id, Number(ts), body).slice(3), 'base64');
  for (const part of sigs.split(' ')) {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const got = Buffer.from(value, 'base64');
    if (got.length === expected.length && crypto.timingSafeEqual(got, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no matching v1 signature' };
}
