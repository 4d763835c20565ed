import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cacheRoot } from './go-tools.js';

// The Python backend's interpreter (examples/python-backend): a venv with its requirements.txt from
// PyPI, cached outside the repo under the hash of that file and of the Python it was made with,
// so that a changed pin or a new Python makes a new one and an unchanged one installs nothing.

export const PYTHON_BACKEND_DIR = resolve('examples/python-backend');

function run(command: string, args: string[], what: string): string {
  const out = spawnSync(command, args, { encoding: 'utf8', timeout: 600_000 });
  if (out.error || out.status !== 0)
    throw new Error(
      `${what} failed (${command} ${args.join(' ')}): ${out.error?.message ?? `exit ${out.status}`}\n${(out.stderr ?? '').slice(-2000)}`,
    );
  return out.stdout;
}

/** The venv's python, made and installed first if this requirements file has none yet. */
export function ensurePythonBackend(log: (line: string) => void = () => undefined): string {
  let version: string;
  try {
    version = run('python3', ['--version'], 'python3').trim();
  } catch (err) {
    throw new Error(
      `the Python backend needs python3 (3.10 or later) with its venv module (Debian: apt-get install python3 python3-venv): ${(err as Error).message}`,
    );
  }
  const requirements = join(PYTHON_BACKEND_DIR, 'requirements.txt');
  const hash = createHash('sha256').update(version).update(readFileSync(requirements)).digest('hex').slice(0, 16);
  const home = join(cacheRoot(), 'python-backend', hash);
  const python = join(home, 'venv', 'bin', 'python');
  // Written last: a venv without it was cut short and is made again.
  const ready = join(home, 'ready');
  if (existsSync(ready)) return python;
  log(`installing the Python backend's requirements (${version}) into ${home}…`);
  rmSync(join(home, 'venv'), { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  run('python3', ['-m', 'venv', join(home, 'venv')], 'making the venv');
  run(
    python,
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--only-binary', ':all:', '-r', requirements],
    `installing ${requirements} from PyPI`,
  );
  writeFileSync(ready, `${version}\n`);
  return python;
}
