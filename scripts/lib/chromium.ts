import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// Debian's Chromium, for the browser tests (playwright-core drives it; nothing downloads a browser).

export const CHROMIUM = '/usr/bin/chromium';

/** Installs Debian's chromium package where it is missing (CI runs as root on Debian). */
export function ensureChromium(log: (line: string) => void): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() !== 0)
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)`);
  log('installing Chromium from Debian’s packages…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'ignore', env });
  return CHROMIUM;
}
