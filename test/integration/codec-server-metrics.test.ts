import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { toWire } from '../../src/temporal/codec-server.js';
import { freePort } from '../../src/temporal/ports.js';

// `npm run codec-server` as an operator runs it: its requests counted by route and outcome on its
// operations port (CODEC_SERVER_OPS_PORT), which Prometheus scrapes without the payload key's token
// and which serves no payload route; the payload routes still want the token.

const KEY = Buffer.alloc(32, 5).toString('base64');
const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one series of a Prometheus exposition, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2]!.split(',');
    if (wanted.every((l) => have.includes(l)) && have.length === wanted.length) return Number(m[3]);
  }
  return undefined;
}

describe('the codec server’s metrics, on its operations port', () => {
  let child: ChildProcess;
  let codecUrl: string;
  let opsUrl: string;
  before(async () => {
    const [port, opsPort] = await Promise.all([freePort(), freePort()]);
    codecUrl = `http://127.0.0.1:${port}`;
    opsUrl = `http://127.0.0.1:${opsPort}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/temporal/codec-server-main.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        // Not the embedded server: the token is required. It never connects to Temporal.
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        PAYLOAD_ENCRYPTION_KEY: KEY,
        CODEC_SERVER_PORT: String(port),
        CODEC_SERVER_OPS_PORT: String(opsPort),
        CODEC_SERVER_TOKEN: TOKEN,
        LOG_LEVEL: 'info',
      },
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const seen = (chunk: Buffer) => {
        out += chunk;
        if (out.includes('codec server listening')) resolve();
      };
      child.stdout!.on('data', seen);
      child.stderr!.on('data', seen);
      child.once('exit', (code) => reject(new Error(`the codec server exited (${code}):\n${out}`)));
    });
  });
  after(() => {
    child?.kill('SIGTERM');
  });

  const metrics = async () => {
    const res = await request(`${opsUrl}/metrics`);
    assert.equal(res.statusCode, 200);
    return res.body.text();
  };
  const counted = (text: string, route: string, outcome: string) =>
    sample(text, 'payflows_codec_server_requests_total', { route, outcome });

  it('exports every route’s outcomes from zero, with no token asked', async () => {
    const text = await metrics();
    for (const [route, outcome] of [
      ['/decode', 'decoded'],
      ['/decode', 'unauthenticated'],
      ['/decode', 'malformed'],
      ['/decode', 'undecodable'],
      ['/encode', 'encoded'],
      ['/session', 'signed_in'],
      ['/claims', 'stored'],
    ])
      assert.equal(counted(text, route!, outcome!), 0, `${route} ${outcome}`);
    assert.match(text, /^payflows_codec_server_request_seconds_bucket\{le="0\.01",route="\/decode"\} 0$/m);
  });

  it('counts a decode and a refused request by route and outcome, and times them', async () => {
    const codec = new EncryptionCodec(Buffer.from(KEY, 'base64'));
    const [payload] = await codec.encode([
      { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('1') },
    ]);
    const wire = { payloads: [toWire(payload!)] };
    const host = new URL(codecUrl).host;
    const decode = (headers: Record<string, string>) =>
      request(`${codecUrl}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', host, ...headers },
        body: JSON.stringify(wire),
      });

    const decoded = await decode({ authorization: `Bearer ${TOKEN}` });
    assert.equal(decoded.statusCode, 200, await decoded.body.text());
    const refused = await decode({});
    assert.equal(refused.statusCode, 401);
    await refused.body.dump();
    const wrongHost = await decode({ authorization: `Bearer ${TOKEN}`, host: 'evil.example:80' });
    assert.equal(wrongHost.statusCode, 403);
    await wrongHost.body.dump();

    const text = await metrics();
    assert.equal(counted(text, '/decode', 'decoded'), 1);
    assert.equal(counted(text, '/decode', 'unauthenticated'), 1);
    assert.equal(counted(text, '/decode', 'forbidden'), 1);
    assert.equal(sample(text, 'payflows_codec_server_request_seconds_count', { route: '/decode' }), 3);
    assert.doesNotMatch(text, /evil|metrics-token/, 'no header or token value becomes a label');
  });

  it('serves no payload route on the operations port, and the payload port no metrics', async () => {
    const onOps = await request(`${opsUrl}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ payloads: [] }),
    });
    assert.equal(onOps.statusCode, 404);
    await onOps.body.dump();
    const metricsOnPayloadPort = await request(`${codecUrl}/metrics`);
    assert.equal(metricsOnPayloadPort.statusCode, 401, 'the payload port asks for the token for anything');
    await metricsOnPayloadPort.body.dump();
    // A request for an unknown path is counted under a bounded route label, not its path.
    const text = await metrics();
    assert.equal(counted(text, 'other', 'unauthenticated'), 1);
    assert.doesNotMatch(text, /route="\/metrics"/);
  });
});
