import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Connection } from '@temporalio/client';
import { decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { request } from 'undici';
import { connectClients, type ConnectedClients } from '../../src/client/index.js';
import type { ProviderClient } from '../../src/provider/client.js';
import * as api from '../../src/provider/endpoints.js';
import { toWire } from '../../src/temporal/codec-server.js';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { kycWorkflowId } from '../../workflows/kyc/messages.js';
import {
  ENCRYPTED,
  openBrowser,
  runPageUrl,
  signInToWebUi,
  type TestBrowser,
  textOnceShown,
} from '../helpers/browser.js';
import {
  type ClusterDescription,
  clusterClientEnv,
  clusterDescription,
  clusterProvider,
  clusterTls,
} from '../helpers/cluster.js';
import { serviceToken } from '../helpers/sign-in.js';
import { eventually } from '../helpers/stack.js';

// Operators sign in to the Web UI at the identity provider (the cluster's stand-in) on its own
// login page; what they may see and do follows their roles: the codec server decodes for a user
// with the decode role only, and Temporal lets only an admin reset. Tokens that are expired or
// forged are refused by both.

describe('signing in to the Web UI, and what each role may do', () => {
  let cluster: ClusterDescription;
  let clients: ConnectedClients;
  let provider: ProviderClient;
  let browser: TestBrowser;
  before(async () => {
    cluster = clusterDescription();
    clients = await connectClients({ env: clusterClientEnv(cluster) });
    provider = clusterProvider(cluster);
    browser = await openBrowser('sign-in');
  });
  after(async () => {
    await browser?.close();
    await provider?.close();
    await clients?.close();
  });

  const user = (username: string) => {
    const found = cluster.signIn.users.find((u) => u.username === username);
    assert.ok(found, `the stand-in has a user ${username}`);
    return found;
  };
  const runPage = (workflowId: string) =>
    runPageUrl(clients.temporal, { uiUrl: cluster.uiUrl, namespace: cluster.temporal.namespace }, workflowId);
  /** A connection that presents `token` as the UI server does for a signed-in user, over TLS (it connects on first call). */
  const asUser = (token: string) =>
    Connection.lazy({
      address: cluster.temporal.address,
      tls: clusterTls(cluster),
      metadata: { authorization: `Bearer ${token}` },
    });
  /** A reset of the wallet's run to its first workflow task, as the UI's Reset does. */
  const reset = async (connection: Connection, workflowId: string) => {
    const handle = clients.temporal.workflow.getHandle(workflowId);
    const { runId } = await handle.describe();
    const firstTask = await eventually(async () => {
      const found = (await handle.fetchHistory()).events!.find((e) => e.workflowTaskCompletedEventAttributes);
      assert.ok(found, 'the run has completed a workflow task');
      return found;
    });
    return connection.workflowService.resetWorkflowExecution({
      namespace: cluster.temporal.namespace,
      workflowExecution: { workflowId, runId },
      workflowTaskFinishEventId: firstTask.eventId,
      reason: 'sign-in test',
      requestId: randomUUID(),
    });
  };
  /** The codec server's answer to a decode call bearing `token`, as the Web UI makes it. */
  const decodeWith = async (token: string) => {
    const codec = new EncryptionCodec(Buffer.from(cluster.payloadKey, 'base64'));
    const payloads = await codec.encode([
      { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('1') },
    ]);
    const res = await request(`${cluster.codecUrl}/decode`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: cluster.uiUrl,
        'x-namespace': cluster.temporal.namespace,
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ payloads: payloads.map(toWire) }),
    });
    await res.body.dump();
    return res.statusCode;
  };
  /** A Temporal read with `token`: its gRPC status code when refused, 0 when answered. */
  const readWith = async (token: string, workflowId: string) => {
    const connection = asUser(token);
    try {
      await connection.workflowService.describeWorkflowExecution({
        namespace: cluster.temporal.namespace,
        execution: { workflowId },
      });
      return 0;
    } catch (err) {
      return (err as { code?: number }).code ?? -1;
    } finally {
      await connection.close();
    }
  };

  let kycPage = '';
  let readerToken = '';
  it('a reader signs in on the provider’s login page and sees a KYC run’s input decoded', async () => {
    const account = await provider.call(api.createAccount, { body: { country: 'US' } });
    await clients.kyc.start(account.id);
    kycPage = await runPage(kycWorkflowId(account.id));
    const page = await browser.newPage();
    await browser.step('reader: decoded', async () => {
      readerToken = await signInToWebUi(page, cluster.uiUrl, user('reader'));
      await page.goto(kycPage);
      const kyc = await textOnceShown(page, /"accountId"/);
      assert.match(kyc, new RegExp(`"accountId": "${account.id}"`));
    });
  });

  it('a user without the decode role sees the same run’s payloads encoded', async () => {
    const page = await browser.newPage();
    await browser.step('reader without decode: encoded', async () => {
      const token = await signInToWebUi(page, cluster.uiUrl, user('reader-without-decode'));
      await page.goto(kycPage);
      const kyc = await textOnceShown(page, ENCRYPTED);
      assert.doesNotMatch(kyc, /"accountId"/, 'the KYC input is not readable');
      assert.equal(await decodeWith(token), 403, 'the codec server refuses the role');
    });
  });

  it('the reader’s reset of a wallet is refused and the history shows none; an admin’s succeeds', async () => {
    const wallet = await clients.wallets.open({ name: `sign-in-${randomUUID().slice(0, 8)}` });
    const workflowId = wallet.walletWorkflowId;
    const before = await clients.temporal.workflow.getHandle(workflowId).describe();
    const readerConnection = asUser(readerToken);
    try {
      await assert.rejects(reset(readerConnection, workflowId), (err: { code?: number }) => err.code === 7);
    } finally {
      await readerConnection.close();
    }
    const unchanged = await clients.temporal.workflow.getHandle(workflowId).describe();
    assert.equal(unchanged.runId, before.runId, 'no new run');
    assert.equal(unchanged.status.name, 'RUNNING');

    const page = await browser.newPage();
    const adminToken = await browser.step('admin signs in', () => signInToWebUi(page, cluster.uiUrl, user('admin')));
    const adminConnection = asUser(adminToken);
    try {
      const { runId } = await reset(adminConnection, workflowId);
      assert.ok(runId && runId !== before.runId, 'the reset made a new run');
    } finally {
      await adminConnection.close();
    }
    const old = await clients.temporal.workflow.getHandle(workflowId, before.runId).describe();
    assert.equal(old.status.name, 'TERMINATED', 'the reset run ended');
  });

  /** A token of the short-lived client, past its life; and one signed with a key the provider never published. */
  const expiredAndForged = async () => {
    const { tokenUrl, shortLived } = cluster.signIn;
    const { kid } = decodeProtectedHeader(await serviceToken(tokenUrl, shortLived.clientId, shortLived.clientSecret));
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({
      permissions: [`${cluster.temporal.namespace}:admin`, `${cluster.temporal.namespace}:decode`],
    })
      .setProtectedHeader({ alg: 'RS256', kid: kid!, typ: 'at+jwt' })
      .setSubject('mallory')
      .setIssuer(cluster.signIn.issuer)
      .setAudience(cluster.signIn.audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    // Fetched last: its life is seconds, and making the forged one takes some.
    const token = await serviceToken(tokenUrl, shortLived.clientId, shortLived.clientSecret);
    return {
      token,
      forged,
      expire: () => new Promise((r) => setTimeout(r, (shortLived.accessTokenTtlSeconds + 1) * 1000)),
    };
  };

  it('an expired token and a forged one are refused by the codec server (401)', async () => {
    const { token, forged, expire } = await expiredAndForged();
    assert.equal(await decodeWith(token), 200, 'fresh, the token decodes');
    await expire();
    assert.equal(await decodeWith(token), 401, 'expired: the codec server refuses it');
    assert.equal(await decodeWith(forged), 401, 'forged: the codec server refuses it');
  });

  it('an expired token and a forged one are refused by Temporal', async () => {
    const wallet = await clients.wallets.open({ name: `sign-in-${randomUUID().slice(0, 8)}` });
    const workflowId = wallet.walletWorkflowId;
    const { token, forged, expire } = await expiredAndForged();
    assert.equal(await readWith(token, workflowId), 0, 'fresh, the token reads');
    await expire();
    assert.notEqual(await readWith(token, workflowId), 0, 'expired: Temporal refuses it');
    assert.notEqual(await readWith(forged, workflowId), 0, 'forged: Temporal refuses it');
  });
});
