import { installDebianPackage } from './debian-package.js';
import { existsSync } from 'node:fs';

// Debian's Chromium, for the browser tests (playwright-core drives it; nothing downloads a browser).

export const CHROMIUM = '/usr/bin/chromium';

/** Installs Debian's chromium package where it is missing (CI runs as root on Debian). */
export function ensureChromium(log: (line: string) => void): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  installDebianPackage('chromium', 'Chromium', log);
  return CHROMIUM;
}
