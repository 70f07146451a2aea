#!/usr/bin/env node
// The CLI is TypeScript run directly (no build step): register tsx, then load it.
// `reii serve` and `reii start` run the server, so they run under the V8 flags and the environment `npm start` gives
// node (node-flags.js): a node started without them (`npx reii serve`) replaces itself with a node given them, ahead
// of any flag it was started with (process.execve: the same process id, so a signal sent to it still reaches the server, which drains).
// test/bin/serve-flags.test.ts.
import process from 'node:process';
import { serverNodeEnv, serverNodeFlags } from './node-flags.js';

const command = process.argv.slice(2).find((a) => !a.startsWith('-')); // the one global option, --debug, takes no value
if ((command === 'serve' || command === 'start') && typeof process.execve === 'function') {
  const missing = serverNodeFlags().filter((f) => !process.execArgv.includes(f));
  const env = serverNodeEnv();
  const envMissing = Object.entries(env).some(([k, v]) => process.env[k] !== v);
  if (missing.length || envMissing) process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...env });
}

const { register } = await import('tsx/esm/api');
register();
await import('./cli.ts');
