// The entry of a valuation worker thread (fit-tasks.ts): registers tsx in this thread so fit-worker.ts and its
// imports load as TypeScript whether the parent runs under the tsx CLI, vitest or plain node.
import { register } from 'tsx/esm/api';

register();
await import('./fit-worker.ts');
