import { execFileSync } from 'node:child_process';

// What the project installs from Debian's packages where it is missing (PostgreSQL, Prometheus,
// HAProxy, Chromium): CI and a new machine run as root on Debian; elsewhere the error says what to
// install.

let listsUpdated = false;

/** Installs Debian's `pkg` (`what`, for the messages); refuses without root, naming the command. */
export function installDebianPackage(pkg: string, what: string, log: (line: string) => void): void {
  if (process.getuid?.() !== 0)
    throw new Error(
      `${what} is missing: install Debian's ${pkg} package (apt-get install --no-install-recommends ${pkg})`,
    );
  log(`installing ${what} from Debian’s packages…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another install under way (the other test suite, scripts/prepare-tools.ts) holds dpkg's lock:
  // wait for it up to 10 minutes rather than fail at once.
  const waitForLock = ['-o', 'DPkg::Lock::Timeout=600'];
  // The package lists once per process: scripts/prepare-tools.ts installs four packages in a row.
  const steps = [...(listsUpdated ? [] : [['update']]), ['install', '-y', '--no-install-recommends', pkg]];
  for (const args of steps) {
    try {
      execFileSync('apt-get', [...waitForLock, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env });
    } catch (err) {
      const stderr = String((err as { stderr?: Buffer }).stderr ?? '').trim();
      throw new Error(`installing ${what}: apt-get ${args.join(' ')} failed: ${stderr || (err as Error).message}`);
    }
    if (args[0] === 'update') listsUpdated = true;
  }
}
