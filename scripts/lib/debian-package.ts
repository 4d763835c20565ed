import { execFileSync } from 'node:child_process';

// What the project installs from Debian's packages where it is missing (PostgreSQL, Prometheus,
// Chromium): CI and a new machine run as root on Debian; elsewhere the error says what to install.

/** Installs Debian's `pkg` (`what`, for the messages); refuses without root, naming the command. */
export function installDebianPackage(pkg: string, what: string, log: (line: string) => void): void {
  if (process.getuid?.() !== 0)
    throw new Error(
      `${what} is missing: install Debian's ${pkg} package (apt-get install --no-install-recommends ${pkg})`,
    );
  log(`installing ${what} from Debian’s packages…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { stdio: 'ignore', env });
}
