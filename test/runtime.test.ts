// Issue 21: the suite, the server and the CLI run on the Node the project installs itself (the `node`
// package in package.json), not on whatever Node the machine has. npm scripts put node_modules/.bin first
// on PATH; this fails if `npm test` ever ran on another runtime.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string>; engines: { node: string } };

describe('runtime', () => {
  it('the tests run on the Node pinned by the `node` package', () => {
    expect(process.versions.node).toBe(pkg.dependencies.node);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it('engines asks for the same major', () => {
    expect(pkg.engines.node).toMatch(new RegExp(`^>=${pkg.dependencies.node!.split('.')[0]}\\b`));
  });

  it('a child `node` started through PATH (as npm scripts start tsx) is the same runtime', () => {
    expect(execFileSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()).toBe(process.versions.node);
  });

  it('node:sqlite, the state store, is built in', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(':memory:');
    expect(db.prepare('select 1 as one').get()).toEqual({ one: 1 });
    db.close();
  });
});
