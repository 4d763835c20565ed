import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM } from '../../scripts/lib/chromium.js';

// Debian's Chromium, headless, driven by playwright-core (which downloads no browser). A step that
// fails leaves a screenshot of each open page in the test's output folder (TEST_OUTPUT_DIR, which
// `npm run test:cluster` keeps with its logs when a test fails) and names it in the error.

/**
 * How long a page may take to show what a step waits for. The Web UI is a heavy single-page app:
 * on an idle 2-core machine a run's page takes 8 s from navigation to its decoded input, and with
 * both CI suites beside it, several times that (a 30 s wait ran out in CI with the text about to
 * show). Reaching this means the page never showed it.
 */
export const PAGE_PATIENCE_MS = 120_000;

export interface TestBrowser {
  browser: Browser;
  /** A fresh profile: no cookies, as another operator's browser. */
  newPage(): Promise<Page>;
  /** Runs `fn`; if it throws, screenshots every open page as `<name>-<n>.png` and says where. */
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function openBrowser(suite: string): Promise<TestBrowser> {
  // No GPU process (there is no GPU: it would draw in software), and pages that respect reduced
  // motion draw no animation: the browser test took 37.8 CPU s of Chromium with both, 46.7 without.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--disable-gpu'] });
  const out = join(process.env.TEST_OUTPUT_DIR ?? join(tmpdir(), 'payflows-test-output'), suite);
  const pages: Page[] = [];
  return {
    browser,
    async newPage() {
      // The cluster's codec server is reached over https with a certificate of the run's own CA
      // (scripts/lib/tls-front.ts), which this profile does not know.
      const context = await browser.newContext({ ignoreHTTPSErrors: true, reducedMotion: 'reduce' });
      context.setDefaultTimeout(PAGE_PATIENCE_MS);
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

/**
 * Signs `page` in to the Web UI at `uiUrl` as `user`, through the identity provider's own login
 * page, as an operator does: the UI's "Continue to SSO", the provider's form, back to the UI.
 * Answers the access token the UI then sends with its calls (and passes to the codec server).
 */
export async function signInToWebUi(
  page: Page,
  uiUrl: string,
  user: { username: string; password: string },
): Promise<string> {
  let accessToken = '';
  page.on('request', (req) => {
    const bearer = /^Bearer (.+)$/.exec(req.headers().authorization ?? '')?.[1];
    if (bearer && req.url().startsWith(`${uiUrl}/api/`)) accessToken = bearer;
  });
  await page.goto(`${uiUrl}/`);
  await page.getByRole('button', { name: /Continue to SSO/i }).click();
  await page.locator('input[name=username]').fill(user.username);
  await page.locator('input[name=password]').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.href.startsWith(uiUrl) && !url.pathname.startsWith('/login'));
  const deadline = Date.now() + PAGE_PATIENCE_MS;
  while (!accessToken && Date.now() < deadline) await page.waitForTimeout(100);
  if (!accessToken) throw new Error(`the Web UI sent no access token after ${user.username} signed in`);
  return accessToken;
}

/** A payload the UI could not decode shows its metadata as sent: `binary/encrypted`, in base64. */
export const ENCRYPTED = new RegExp(Buffer.from('binary/encrypted').toString('base64'));

/** The page's main text once `ready` shows in it (the UI loads and decodes after the first paint). */
export async function textOnceShown(page: Page, ready: RegExp): Promise<string> {
  await page.getByText(ready).first().waitFor();
  return page.locator('body').innerText();
}

/** The Web UI's page of the current run of `workflowId`. */
export async function runPageUrl(
  client: Client,
  ui: { uiUrl: string; namespace: string },
  workflowId: string,
): Promise<string> {
  const { runId } = await client.workflow.getHandle(workflowId).describe();
  return `${ui.uiUrl}/namespaces/${ui.namespace}/workflows/${encodeURIComponent(workflowId)}/${runId}`;
}
