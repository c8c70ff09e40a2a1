// Random bytes from node:crypto, loaded the first time one is asked for. node:crypto takes about 3 ms to
// load (docs/startup.md): a module that only may need random bytes (the store's migrations, the run lock,
// a temporary file's name) would otherwise cost that to every run that loads it, `transfer log` included.
import type { Buffer } from 'node:buffer';

export function randomBytes(size: number): Buffer {
  return process.getBuiltinModule('node:crypto').randomBytes(size);
}
