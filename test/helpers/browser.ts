import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM } from '../../scripts/lib/chromium.js';

// Debian's Chromium, headless, driven by playwright-core (which downloads no browser). A step that
// fails leaves a screenshot of each open page in the test's output folder (TEST_OUTPUT_DIR, which
// `npm run test:cluster` keeps with its logs when a test fails) and names it in the error.

export interface TestBrowser {
  browser: Browser;
  /** A fresh profile: no cookies, as another operator's browser. */
  newPage(): Promise<Page>;
  /** Runs `fn`; if it throws, screenshots every open page as `<name>-<n>.png` and says where. */
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function openBrowser(suite: string): Promise<TestBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  const out = join(process.env.TEST_OUTPUT_DIR ?? join(tmpdir(), 'payflows-test-output'), suite);
  const pages: Page[] = [];
  return {
    browser,
    async newPage() {
      const context = await browser.newContext();
      const page = await context.newPage();
      pages.push(page);
      return page;
    },
    async step(name, fn) {
      try {
        return await fn();
      } catch (err) {
        mkdirSync(out, { recursive: true });
        const shots: string[] = [];
        for (const [i, page] of pages.entries()) {
          if (page.isClosed()) continue;
          const file = join(out, `${name.replace(/[^\w-]+/g, '-')}-${i + 1}.png`);
          await page.screenshot({ path: file, fullPage: true }).then(
            () => shots.push(file),
            () => undefined,
          );
        }
        (err as Error).message += `\n(step "${name}"; screenshots: ${shots.join(', ') || 'none'})`;
        throw err;
      }
    },
    close: () => browser.close(),
  };
}
