import { createRequire, syncBuiltinESMExports } from 'node:module';
import { isMainThread } from 'node:worker_threads';

// Preloaded into each test file's process (testRunnerCommand): it() and test() without a
// `{ timeout }` of their own get PAYFLOWS_TEST_TIMEOUT_MS, so that a hang fails that test, by
// name. Node 20's --test-timeout cannot: under --test it times each file as a whole and names only
// the file, and the processes it starts give their tests no default. The cost: the "test at" line
// of a failure points here; the test's name, and an assertion's stack, point at the test.
// Plain JavaScript: the Temporal worker's threads inherit this preload, and there a .ts one fails
// with "Unknown file extension". In those threads it does nothing.

const ms = Number(process.env.PAYFLOWS_TEST_TIMEOUT_MS);

/** @param {unknown[]} args it()'s: name, options and function, each optional */
function withDefaultTimeout(args) {
  const optionsAt = args.findIndex((a) => typeof a === 'object' && a !== null);
  if (optionsAt >= 0) {
    const options = /** @type {{ timeout?: number }} */ (args[optionsAt]);
    if (options.timeout !== undefined) return args;
    return args.map((a, i) => (i === optionsAt ? { ...options, timeout: ms } : a));
  }
  // it(name, fn) or it(fn): the options go before the function.
  const fnAt = args.findIndex((a) => typeof a === 'function');
  return fnAt < 0 ? [...args, { timeout: ms }] : [...args.slice(0, fnAt), { timeout: ms }, ...args.slice(fnAt)];
}

if (isMainThread && Number.isSafeInteger(ms) && ms > 0) {
  const nodeTest = createRequire(import.meta.url)('node:test');
  for (const name of ['it', 'test']) {
    // A proxy keeps it.skip, it.only and the rest as they are.
    nodeTest[name] = new Proxy(nodeTest[name], {
      apply: (target, self, args) => Reflect.apply(target, self, withDefaultTimeout(args)),
    });
  }
  // The test files import { it } from 'node:test': point those bindings at the proxies.
  syncBuiltinESMExports();
}
