#!/usr/bin/env node
// The CLI is TypeScript run directly (no build step): register tsx, then load it.
import { register } from 'tsx/esm/api';
register();
await import('./cli.ts');
