import { createServer } from 'node:http';
import { Agent, request } from 'undici';
import { ProviderClient } from '../src/provider/client.js';
import { readWallet } from '../src/provider/endpoints.js';
import { type Figure, runConcurrently } from './measure.js';
import { signedHeaders } from './protocol.js';

// The provider client's own cost: a signed, validated GET of a wallet against bare
// undici.request reading the same JSON from the same tiny local server, each with its own
// keep-alive pool. Rounds alternate the two (and which goes first) after a warm-up, and the
// median of the per-round figures is kept, so a noisy shared machine moves both sides alike.

const walletJson = JSON.stringify({
  id: 'WA_BENCH00001',
  srn: 'wallet:WA_BENCH00001',
  name: 'bench',
  owner: 'account:AC_BENCH00001',
  type: 'DEFAULT',
  status: null,
  createdAt: 1_700_000_000_000,
  callbackUrl: 'https://shop.example/callbacks',
  notes: null,
  depositAddresses: { BTC: 'bc1qbench', ETH: '0xbench' },
  balances: { BTC: 0.5 },
  totalBalances: { BTC: 0.5 },
  availableBalances: { BTC: 0.5 },
  realtimeChannel: 'bench',
  verificationData: {},
});

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

const callsPerSecond = async (fn: () => Promise<unknown>, n: number) =>
  (await runConcurrently(fn, 1, Infinity, n)).rate;

/**
 * Two figures: the client against bare undici (the goal), and bare undici sending what the
 * protocol itself adds (timestamp, X-Api-Key, X-Api-Signature, X-Api-Version) against bare undici:
 * the part of the gap that is the protocol's, not the client's.
 */
export async function clientFigures(rounds: number, perRound = 600): Promise<Figure[]> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(walletJson) });
    res.end(walletJson);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const bareAgent = new Agent({ keepAliveTimeout: 10_000 });
  const client = new ProviderClient({
    baseUrl: base,
    auth: { kind: 'signature', apiKey: 'AK-BENCH', secretKey: 'SK-BENCH' },
  });
  const bare = async () =>
    (await request(`${base}/v2/wallet/WA_BENCH00001`, { method: 'GET', dispatcher: bareAgent })).body.json();
  const signed = () => client.call(readWallet, { params: { walletId: 'WA_BENCH00001' } });
  const protocol = async () => {
    const url = `${base}/v2/wallet/WA_BENCH00001?timestamp=${Date.now()}`;
    const headers = signedHeaders({ apiKey: 'AK-BENCH', secretKey: 'SK-BENCH' }, url, '');
    return (await request(url, { method: 'GET', dispatcher: bareAgent, headers })).body.json();
  };
  try {
    await callsPerSecond(bare, 2_000);
    await callsPerSecond(signed, 2_000);
    await callsPerSecond(protocol, 2_000);
    const rates = { bare: [] as number[], signed: [] as number[], protocol: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      const bareFirst = r % 2 === 0;
      const before = bareFirst ? await callsPerSecond(bare, perRound) : 0;
      rates.signed.push(await callsPerSecond(signed, perRound));
      rates.protocol.push(await callsPerSecond(protocol, perRound));
      rates.bare.push(bareFirst ? before : await callsPerSecond(bare, perRound));
    }
    return [
      {
        name: 'provider client: signed, validated GET of a wallet vs bare undici.request (same local server)',
        unit: '/s',
        product: median(rates.signed),
        yardstick: median(rates.bare),
        goal: 0.9,
      },
      {
        name: "bare undici.request with the protocol's headers and signed query vs without (the protocol's share of the gap)",
        unit: '/s',
        product: median(rates.protocol),
        yardstick: median(rates.bare),
        goal: undefined,
      },
    ];
  } finally {
    await client.close();
    await bareAgent.close();
    server.close();
  }
}
