import { HISTORY_PROCESSES } from './lib/history-file.js';
import { connection, provider, type Stories } from './lib/histories/context.js';

// With the stack running as
//   PAYLOAD_ENCRYPTION_KEY=$(cat test/histories/payload-key.txt) WALLET_POLL_INTERVAL=500ms WALLET_POLL_MAX=2s npm run dev
// `node --import tsx scripts/record-histories.ts [process, story or story prefix…]`, with the same key, drives each
// process's stories (its happy path and its other paths: reminders, deadlines, refusals, attempts used up, limits;
// each process's in lib/histories/<process>.ts) and writes their histories to test/histories/<process>/
// (lib/history-file.ts), which `npm run replay` and the replay test replay against every later change. Run it again,
// and commit the files, when a workflow changes on purpose in a way that running workflows can take (or after they
// have all finished).

// Earlier ledger shapes are recorded only when named: they stand for runs of code long replaced.
const onRequest = (name: string) => name.startsWith('wallet-carried-');
const wanted = process.argv.slice(2);
const all = [];
for (const processName of HISTORY_PROCESSES) {
  const { stories } = (await import(`./lib/histories/${processName}.js`)) as { stories: Stories };
  all.push(...Object.entries(stories).map(([name, story]) => ({ processName, name, story })));
}
const chosen = all.filter(({ processName, name }) =>
  wanted.length === 0
    ? !onRequest(name)
    : wanted.some((arg) => arg === name || (!onRequest(name) && (arg === processName || name.startsWith(`${arg}-`)))),
);
if (chosen.length === 0)
  throw new Error(`no story matches ${wanted.join(' ')}; stories: ${all.map(({ name }) => name).join(', ')}`);
try {
  for (const { name, story } of chosen) {
    console.log(`story ${name}`);
    await story();
  }
} finally {
  await provider.close();
  await connection.close();
}
