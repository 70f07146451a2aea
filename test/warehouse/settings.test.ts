// Settings are data: every row is documented in README.md, and bad values are refused by name.
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SETTINGS, loadSettings } from '../../warehouse/settings.ts';
import { CliError } from '../../warehouse/errors.ts';
import { repoPath } from '../helpers/paths.ts';

const README = fs.readFileSync(repoPath('README.md'), 'utf8');

describe('settings', () => {
  test.each(SETTINGS.map((s) => [s.env, s]))('%s is documented in README.md with its default', (_env, s) => {
    const row = README.split('\n').find((l) => l.startsWith(`| \`${s.env}\` |`));
    expect(row, `README settings table lacks ${s.env}`).toBeDefined();
    if (s.default !== '' && !['sources', 'artifacts', 'state'].includes(s.name)) expect(row).toContain(`\`${s.default}\``);
  });
  test('environment is read, flags win, bad values are refused by name', () => {
    expect(loadSettings({}, { PORT: '9999' }).port).toBe(9999);
    expect(loadSettings({ port: '7000' }, { PORT: '9999' }).port).toBe(7000);
    expect(() => loadSettings({}, { PORT: 'http' })).toThrow(CliError);
    expect(() => loadSettings({}, { REII_KEEP_BUILDS: '0' })).toThrow(/keepBuilds must be a whole number from 1/);
    expect(() => loadSettings({}, { REII_LOG: 'xml' })).toThrow(/logFormat must be human or json/);
    expect(Object.isFrozen(loadSettings())).toBe(true);
  });
  test('trusted proxies: IPs and CIDRs of either family, anything else refused by name', () => {
    expect(loadSettings({}, {}).trustedProxies).toBe('');
    expect(loadSettings({}, { REII_TRUSTED_PROXIES: ' 10.0.0.0/8, 192.168.1.4 ,fd00::/8,::1 ' }).trustedProxies).toBe('10.0.0.0/8,192.168.1.4,fd00::/8,::1');
    for (const bad of ['10.0.0.0/33', 'lb.internal', '10.0.0/8', '::1/129', '1.2.3.4/8/9', '1.2.3.4/x']) {
      expect(() => loadSettings({}, { REII_TRUSTED_PROXIES: bad }), bad).toThrow(/trustedProxies must be comma-separated IP addresses or CIDRs/);
    }
  });
});
