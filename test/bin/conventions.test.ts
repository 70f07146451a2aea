// The command-line conventions as real processes: `npm start` stopped by SIGTERM (npm -> node, the signal
// reaches the server and nothing stays listening), a missing artifacts folder is one line and exit 2, and the
// --json forms a script reads are one JSON document on stdout.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { STACK_LINE, cleanupCli, env, get, reii, tmp, until } from '../helpers/cli.ts';
import { REPO } from '../helpers/paths.ts';

afterAll(cleanupCli);

/** Whether anything accepts a connection on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

describe('reii by the command-line conventions', () => {
  test('`npm start` stopped with SIGTERM sent to npm alone: the server drains, npm exits and the port is closed', async () => {
    const child = spawn('npm', ['start', '--silent'], { cwd: REPO, env: env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: tmp(), PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.stdout.resume();
    const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const url = await until('npm start to serve', async () => /^reii serving (http:\/\/\S+) /m.exec(stderr)?.[1], 120_000, 100);
      const port = Number(new URL(url).port);
      expect((await get(`${url}/v1/health`)).status).toBe(200);
      // the script's `MALLOC_ARENA_MAX=2 exec node ...`: the shell execs node, npm's one child, with the variable set
      const kids = fs.readdirSync(`/proc/${child.pid}/task`).flatMap((t) => fs.readFileSync(`/proc/${child.pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean));
      expect(kids).toHaveLength(1);
      expect(fs.readFileSync(`/proc/${kids[0]}/cmdline`, 'utf8').split('\0')).toContain('start');
      expect(fs.readFileSync(`/proc/${kids[0]}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=2');
      child.kill('SIGTERM'); // npm only, as a process manager stops what it started
      await exit;
      expect(stderr).toContain('SIGTERM: draining');
      expect(await until('the port to close', async () => ((await listening(port)) ? undefined : true), 15_000, 100)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  }, 180_000);

  test('serve over an artifacts folder that does not exist: one line naming it, exit 2, no stack', async () => {
    const missing = path.join(tmp(), 'no-such-folder');
    const r = await reii(['serve', '--port', '0', '--artifacts', missing], env({ REII_STATE: tmp() }), 30_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`reii: artifacts folder ${missing} does not exist (set --artifacts or REII_ARTIFACTS)\n`);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stdout).toBe('');
  });

  test('keys create --json and keys rotate --json: one JSON document a script reads, the key in it', async () => {
    const e = env({ REII_STATE: tmp() });
    const created = await reii(['keys', 'create', '--plan', 'pro', '--name', 'ci', '--json'], e);
    expect(created.code, created.stderr).toBe(0);
    const c = JSON.parse(created.stdout) as { id: string; plan: string; name: string; rpm: number | null; key: string };
    expect(c).toMatchObject({ plan: 'pro', name: 'ci', rpm: null });
    expect(c.key).toMatch(/^ries_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
    const rotated = await reii(['keys', 'rotate', c.id, '--json'], e);
    expect(rotated.code, rotated.stderr).toBe(0);
    const r = JSON.parse(rotated.stdout) as { revoked: string; id: string; plan: string; key: string };
    expect(r).toMatchObject({ revoked: c.id, plan: 'pro' });
    expect(r.id).not.toBe(c.id);
    expect(r.key).not.toBe(c.key);
    const list = JSON.parse((await reii(['keys', 'list', '--json'], e)).stdout) as { id: string; status: string }[];
    expect(Object.fromEntries(list.map((k) => [k.id, k.status]))).toEqual({ [c.id]: 'revoked', [r.id]: 'active' });
  });
});
