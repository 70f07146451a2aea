// The heap a value keeps: heapUsed after full collections with the value alive, less before it was made. The tests of
// the live modules' load-time memory (what the server holds per build) assert on it. gc is reached through V8's flag,
// so a plain vitest run needs no --expose-gc.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function heapUsed(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** MB of heap (array buffers counted too) that the value `make` returns keeps while it is alive. */
export function retainedMb<T>(make: () => T): { value: T; mb: number } {
  const before = heapUsed() + process.memoryUsage().arrayBuffers;
  const value = make();
  const mb = (heapUsed() + process.memoryUsage().arrayBuffers - before) / 2 ** 20;
  return { value, mb };
}
