import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIG_DOC, configDrift, renderConfigDoc } from './lib/config-doc.js';

// `npm run docs:config` writes docs/configuration.md's tables from src/config.ts; with --check
// (part of `npm run lint`) it fails, naming each variable, when the file is stale.

const current = readFileSync(CONFIG_DOC, 'utf8');
try {
  if (process.argv.includes('--check')) {
    const drift = await configDrift(current);
    if (drift.length) {
      console.error(`${CONFIG_DOC} is stale for ${drift.join(', ')}: run \`npm run docs:config\` and commit it.`);
      process.exit(1);
    }
  } else {
    writeFileSync(CONFIG_DOC, await renderConfigDoc(current));
    console.log(`wrote ${CONFIG_DOC}`);
  }
} catch (err) {
  console.error(`${CONFIG_DOC}: ${(err as Error).message}`);
  process.exit(1);
}
