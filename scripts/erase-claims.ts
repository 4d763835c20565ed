import { claimStoreFromConfig } from '../src/claims/from-config.js';
import { ClaimUnavailableError } from '../src/claims/store.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { brief, claimStoreSettings, giveUp } from './lib/reach.js';

// `npm run claims:erase -- <subject>`: deletes every claim of one person from the claim store, on
// their request (the subject is the business key the claims were stored under: the account id
// for KYC, the payment method for ACH forms, the client reference for provisioning).
const subject = process.argv[2];
if (!subject || process.argv.length > 3) {
  console.error(
    'usage: npm run claims:erase -- <subject>   (an account id, a payment method id or a client reference)',
  );
  process.exit(2);
}
let config: ReturnType<typeof loadConfig> | undefined;
try {
  config = loadConfig();
  const erased = await claimStoreFromConfig(config).eraseSubject(subject);
  console.log(
    `erased ${erased} claim${erased === 1 ? '' : 's'} of ${subject} from ${config.claims.url ?? config.claims.dir}`,
  );
  process.exit(0);
} catch (err) {
  // A store that does not answer: one line that names it (nothing was erased; run it again).
  if (err instanceof ClaimUnavailableError && config)
    giveUp(
      `the claim store is not reachable (${brief(err)}), nothing was erased: check ${claimStoreSettings(config)}, then run it again`,
    );
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(78);
}
