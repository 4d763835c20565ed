import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { request } from 'undici';
import { callbackSignature } from '../../src/provider/signing.js';
import { startTracing, type Tracing } from '../../src/telemetry/tracing.js';
import { resultWithin } from '../helpers/result.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { walletSrn } from '../../src/provider/srn.js';
import { walletWorkflowId } from '../../workflows/wallet/messages.js';

// One trace per backend call and per callback, from the first span to the provider's HTTP call:
// the ingress and a worker in this process, spans kept in memory.

const exporter = new InMemorySpanExporter();

/** The chain of span names from `span` up to its root. */
function ancestry(span: ReadableSpan, spans: ReadableSpan[]): string[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const chain = [span.name];
  for (
    let parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
    parent;
    parent = parent.parentSpanId ? byId.get(parent.parentSpanId) : undefined
  ) {
    chain.unshift(parent.name);
  }
  return chain;
}

describe('traces across the ingress, Temporal, the worker and the provider', () => {
  let tracing: Tracing;
  let stack: Stack;
  before(async () => {
    tracing = startTracing({ service: 'test', processor: new SimpleSpanProcessor(exporter) });
    stack = await startStack({ tracing });
  });
  after(async () => {
    await stack?.stop();
    await tracing?.shutdown();
  });

  it('a backend call: the opening, the activity and the provider call in one trace', async () => {
    const name = `traced-${Date.now()}`;
    const { walletWorkflowId: workflowId } = await stack.wallets.open({ name });
    // The workflow opens and then follows the wallet: its RunWorkflow span stays open, so the chain
    // is checked from the activity down to the provider call, in the trace of the client's call.
    const chain = await eventually(() => {
      const spans = exporter.getFinishedSpans();
      const call = spans.find((s) => s.name === 'provider create wallet');
      assert.ok(call, `no provider span among ${spans.map((s) => s.name).join(', ')}`);
      return { chain: ancestry(call, spans), spans, call };
    });
    assert.deepEqual(chain.chain, ['StartActivity:createWallet', 'RunActivity:createWallet', 'provider create wallet']);
    const opening = chain.spans.find((s) => s.name === 'UpdateWithStartWorkflow:opened');
    assert.ok(opening, 'the client’s update-with-start span');
    assert.equal(
      new Set(
        [...chain.chain.map((n) => chain.spans.find((s) => s.name === n)!), opening].map(
          (s) => s.spanContext().traceId,
        ),
      ).size,
      1,
      'one trace',
    );
    assert.equal(chain.call.attributes['http.response.status_code'], 200);
    // No payloads in span attributes: the name given to open() appears only inside the workflow
    // id, a business key that docs/security.md asks callers to keep free of personal data.
    const mentions = chain.spans
      .flatMap((s) => Object.entries(s.attributes))
      .filter(([, v]) => String(v).includes(name));
    assert.ok(
      mentions.length > 0 && mentions.every(([k, v]) => /workflow_?id$/i.test(k) && v === `open-wallet:${name}`),
      JSON.stringify(mentions),
    );
    await stack.client.workflow.getHandle(workflowId).terminate('test done');
  });

  it('a workflow that fails: its span says so by the error’s type, without its message, in the caller’s trace', async () => {
    exporter.reset();
    const name = `refused-${Date.now()}`;
    // Past the typed client, which would refuse it first: the workflow's own check refuses it.
    const handle = await stack.client.workflow.start('openWalletWorkflow', {
      taskQueue: stack.taskQueue,
      workflowId: `open-wallet:${name}`,
      args: [{ name, type: 'NOT_A_TYPE', secret: 'Ada Lovelace 123-45-6789' }],
    });
    await assert.rejects(resultWithin(handle.result(), handle.workflowId));
    const run = await eventually(() => {
      const span = exporter.getFinishedSpans().find((s) => s.name === 'RunWorkflow:openWalletWorkflow');
      assert.ok(span, 'no RunWorkflow span');
      return span;
    });
    const start = exporter.getFinishedSpans().find((s) => s.name === 'StartWorkflow:openWalletWorkflow')!;
    assert.equal(run.parentSpanId, start.spanContext().spanId, 'the run is the start’s child');
    assert.equal(run.spanContext().traceId, start.spanContext().traceId);
    assert.equal(run.status.code, SpanStatusCode.ERROR);
    const exception = run.events.find((e) => e.name === 'exception');
    assert.equal(exception?.attributes?.['exception.type'], 'ApplicationFailure');
    const text = JSON.stringify([run.status, run.events, run.attributes]);
    for (const value of ['Ada', '123-45-6789', 'NOT_A_TYPE', '    at ']) assert.ok(!text.includes(value), text);
  });

  it('a callback: the ingress request down to the wallet workflow’s provider call', async () => {
    exporter.reset();
    const walletId = 'WA_TRACED1';
    const body = JSON.stringify({
      id: 'TR_TRACED1',
      createdAt: Date.now(),
      source: 'bitcoin:EXTERNAL',
      dest: walletSrn(walletId),
      currency: 'BTC',
      amount: 0.1,
      status: 'PENDING',
      metadata: {},
      tags: [],
    });
    const res = await request(`${stack.ingressUrl}/callbacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(stack.secretKey, body) },
      body,
    });
    await res.body.dump();
    assert.equal(res.statusCode, 200);
    // The wallet's run never ends, so its RunWorkflow span is still open: the chain is checked
    // from the callback down to the signal, and from the activity down to the provider call, all
    // in the callback's trace. A follower started by a callback polls at once (a local activity).
    // Only spans of the callback's trace: a wallet from the first test may still be polling.
    const { spans, call } = await eventually(() => {
      const spans = exporter.getFinishedSpans();
      const root = spans.find((s) => s.name === 'callback');
      assert.ok(root, 'no callback span');
      const call = spans.find(
        (s) => s.name === 'provider list wallet transactions' && s.spanContext().traceId === root.spanContext().traceId,
      );
      assert.ok(call, `no provider span among ${spans.map((s) => s.name).join(', ')}`);
      // The workflow's own spans arrive through a sink once its task completes.
      assert.equal(ancestry(call, spans)[0], 'StartActivity:pollWalletTransactions');
      return { spans, call };
    });
    const root = spans.find((s) => s.name === 'callback')!;
    const signal = spans.find((s) => s.name === 'SignalWithStartWorkflow:walletWorkflow')!;
    assert.equal(signal.parentSpanId, root.spanContext().spanId, 'the signal is the callback’s child');
    assert.deepEqual(ancestry(call, spans), [
      'StartActivity:pollWalletTransactions',
      'RunActivity:pollWalletTransactions',
      'provider list wallet transactions',
    ]);
    const trace = root.spanContext().traceId;
    assert.ok(
      [signal, call].every((s) => s.spanContext().traceId === trace),
      'one trace',
    );
    assert.ok(!JSON.stringify(exporter.getFinishedSpans().map((s) => s.attributes)).includes(stack.secretKey));
    await stack.client.workflow
      .getHandle(walletWorkflowId(walletId))
      .terminate('test done')
      .catch(() => {});
  });
});
