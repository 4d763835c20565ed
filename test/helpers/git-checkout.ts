import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

/**
 * A git checkout of `files`, committed once, in a fresh temporary folder removed after the test.
 * Undefined, with the test skipped and saying why, where git cannot make one.
 */
export function committedCheckout(t: TestContext, files: Record<string, string>): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'payflows-checkout-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'pipe' });
  try {
    git('init', '-q');
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    git('add', '.');
    git('commit', '-q', '-m', 'one');
    return dir;
  } catch (err) {
    t.skip(`git cannot make a checkout here: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
}
