// Faults while building: a malformed shard file and a full disk never reach the served build.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runBuild } from '../../pipelines/build.ts';
import { loadSettings } from '../../pipelines/settings.ts';
import { silentLogger } from '../../pipelines/log.ts';
import { currentBuildDir } from '../../pipelines/publish.ts';
import { CliError, EXIT } from '../../pipelines/errors.ts';
import { verifyShards } from '../../pipelines/shards/index.ts';

const SHARED = path.resolve(import.meta.dirname, '../../../shared/data');
const NOW = new Date('2026-11-21T06:00:00Z');

function smallSources(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-src-'));
  fs.symlinkSync(path.join(SHARED, 'louisville-metro-lien-foreclosures'), path.join(dir, 'louisville-metro-lien-foreclosures'));
  return dir;
}

describe('build faults', () => {
  test('a malformed shard file is caught by the build\'s checks before publication', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-art-'));
    const settings = loadSettings({ artifacts, sources: smallSources() });
    const good = await runBuild({ settings, log: silentLogger, now: NOW });
    const err = await runBuild({
      settings, log: silentLogger, now: NOW,
      beforePublish: (dir) => {
        fs.mkdirSync(path.join(dir, 'shards', 'geo'), { recursive: true });
        fs.writeFileSync(path.join(dir, 'shards', 'geo', 'states.json'), '{"count": 50, "states": [');
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.stage);
    expect((err as Error).message).toContain('geo/states.json');
    expect(currentBuildDir(artifacts)).toBe(good.dir);
  });

  test('verifyShards names every malformed file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-shards-'));
    fs.mkdirSync(path.join(dir, 'a'));
    fs.writeFileSync(path.join(dir, 'a', 'ok.json'), '{"x": 1}');
    fs.writeFileSync(path.join(dir, 'a', 'bad.json'), '{"x": ');
    fs.writeFileSync(path.join(dir, 'a', 'scalar.json'), '42');
    const r = verifyShards(dir);
    expect(r.files).toBe(3);
    expect(r.errors.map((e) => e.split(':')[0]).sort()).toEqual(['a/bad.json', 'a/scalar.json']);
  });

  // A small tmpfs of its own, filled up after a first good build: mounting needs root (CI runs as root).
  const isRoot = process.getuid?.() === 0;
  const fullDiskName = 'a full disk while writing a build leaves the served build intact';
  test.skipIf(!isRoot)(isRoot ? fullDiskName : `${fullDiskName} [skipped: not root, so no tmpfs can be mounted to fill; CI runs it as root]`, async () => {
    const mnt = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mnt]);
    try {
      const artifacts = path.join(mnt, 'artifacts');
      const settings = loadSettings({ artifacts, sources: smallSources() });
      const good = await runBuild({ settings, log: silentLogger, now: NOW });
      const servedBefore = fs.readFileSync(path.join(good.dir, 'manifest.json'), 'utf8');
      // Leave about 256 KiB free.
      const free = Number(execFileSync('df', ['--output=avail', '-B1', mnt]).toString().trim().split('\n')[1]);
      execFileSync('fallocate', ['-l', String(Math.max(0, free - 256 * 1024)), path.join(mnt, 'filler')]);
      const err = await runBuild({ settings, log: silentLogger, now: NOW }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(String((err as Error).message)).toMatch(/space|ENOSPC|disk|write/i);
      expect(currentBuildDir(artifacts)).toBe(good.dir);
      expect(fs.readFileSync(path.join(good.dir, 'manifest.json'), 'utf8')).toBe(servedBefore);
      expect(fs.existsSync(path.join(artifacts, 'build.lock'))).toBe(false);
    } finally {
      execFileSync('umount', ['-l', mnt]);
    }
  });
});
