import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// `go install module@version` into a folder of the cache, with its output passed on as the
// progress there is: the Temporal CLI, server, SQL tool and UI, and versitygw are built this way.
// Installed into a folder of its own inside `dir`, then renamed into `dir` (which must exist): a
// build cut short or still under way leaves no binary there that looks finished, and two processes
// building the same tool at once never write the same file.

/**
 * The flags of every Go command here that compiles: the builds and `go test`. No DWARF debug
 * information, from the compiler or the linker: an eighth to a quarter less CPU to compile
 * (measured from empty caches: versitygw 211 CPU s against 278, helm 304 against 347), and nothing
 * here reads it (no debugger attaches; panics, profiles and `go version -m` use the symbol table and
 * the build info, which stay). The builds that share packages use the same ones, because they are
 * part of each package's key in Go's build cache: the server's module then reuses the CLI's
 * compiled packages, and `go test` the build's. goInstall takes others for a tool of its own.
 */
export const GO_BUILD_FLAGS = ['-gcflags=all=-dwarf=false', '-ldflags=-w'];

export async function goInstall(
  go: string,
  moduleAtVersion: string,
  dir: string,
  log: (line: string) => void,
  { env = process.env, flags = GO_BUILD_FLAGS }: { env?: NodeJS.ProcessEnv; flags?: readonly string[] } = {},
): Promise<void> {
  const partial = mkdtempSync(join(dir, '.partial-'));
  try {
    await runGo(go, ['install', ...flags, moduleAtVersion], {
      env: { ...env, GOBIN: partial, GOFLAGS: [env.GOFLAGS, '-mod=mod'].filter(Boolean).join(' ') },
      log,
    });
    for (const file of readdirSync(partial)) renameSync(join(partial, file), join(dir, file));
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/** A go command, its output passed on line by line; a failure rejects with its last lines. */
export function runGo(
  go: string,
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd?: string; log: (line: string) => void },
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(go, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        tail = [...tail.slice(-20), line];
        // `go: downloading …` lines are the progress there is; print them compactly.
        opts.log(`  ${line}`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`go ${args.join(' ')} failed (exit ${code}):\n${tail.join('\n')}`)),
    );
  });
}
