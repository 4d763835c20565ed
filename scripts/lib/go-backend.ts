import { buildLocalModule, LOCAL_MODULES } from './go-tools.js';

// examples/go-backend, built once per change of its sources (scripts/lib/go-tools.ts buildLocalModule).

export const GO_BACKEND_DIR = LOCAL_MODULES.goBackend.dir;

/** The binary of examples/go-backend, built if this version of it has not been. */
export const buildGoBackend = (log: (line: string) => void): Promise<string> =>
  buildLocalModule(LOCAL_MODULES.goBackend, log);
