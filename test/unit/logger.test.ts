import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger, temporalLogger } from '../../src/telemetry/logger.js';
import { REDACTED, scrub } from '../../src/telemetry/redact.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe('structured logs', () => {
  it('writes one JSON object per line with the level, time, service and message', () => {
    const { lines, destination } = capture();
    createLogger({ service: 'worker', destination }).info({ walletId: 'WA_1' }, 'polled');
    assert.equal(lines.length, 1);
    const [line] = lines;
    assert.equal(line?.level, 'info');
    assert.equal(line?.service, 'worker');
    assert.equal(line?.msg, 'polled');
    assert.equal(line?.walletId, 'WA_1');
    assert.ok(!Number.isNaN(Date.parse(String(line?.time))));
  });

  it('redacts secrets, signatures, SSNs, document bytes and onboarding links at any depth', () => {
    const { lines, destination } = capture();
    createLogger({ service: 'ingress', destination }).warn(
      {
        headers: { 'x-api-signature': 'ab12', authorization: 'Bearer SK-1' },
        call: { body: { profileFields: [{ fieldId: 'individualSsn', value: '123-45-6789' }] } },
        provider: { secretKey: 'SK-LIVE', apiKey: 'AK-LIVE' },
        document: { bytes: Buffer.from('image') },
        result: { onboardingLink: 'https://verify.example/abc' },
      },
      'provider refused ssn 123-45-6789',
    );
    const text = JSON.stringify(lines);
    for (const secret of ['ab12', 'SK-1', '123-45-6789', 'SK-LIVE', 'AK-LIVE', 'image', 'aW1hZ2U', 'verify.example']) {
      assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
    }
    assert.equal(lines[0]?.msg, `provider refused ssn ${REDACTED}`);
    assert.equal((lines[0]?.headers as Record<string, unknown>)['x-api-signature'], REDACTED);
  });

  it('redacts names, e-mail addresses, postal addresses, dates of birth and passport numbers, and SSNs written with spaces', () => {
    const { lines, destination } = capture();
    createLogger({ service: 'worker', destination }).warn(
      {
        holder: {
          legalName: 'Ada Lovelace',
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.org',
          residenceAddress: '1 Main St, Springfield',
          postalCode: '62704',
          dateOfBirth: '1815-12-10',
          passportNumber: 'X1234567',
        },
        // The provider's shape: the field's id beside its value.
        body: {
          profileFields: [
            { fieldId: 'individualLegalName', value: 'Augusta Ada King' },
            { fieldId: 'individualDateOfBirth', value: '1990-12-10' },
            { fieldId: 'individualResidenceAddress', value: '12 Elm Road, Shelbyville' },
          ],
        },
        note: 'reach her at ada.king@example.org',
      },
      'resubmitted ssn 123 45 6789 for countess@example.org',
    );
    const text = JSON.stringify(lines);
    for (const value of [
      'Ada Lovelace',
      '"Ada"',
      '"Lovelace"',
      'ada@example.org',
      'Main St',
      '62704',
      '1815-12-10',
      'X1234567',
      'Augusta Ada King',
      '1990-12-10',
      'Elm Road',
      'ada.king@example.org',
      '123 45 6789',
      'countess@example.org',
    ])
      assert.ok(!text.includes(value), `${value} leaked: ${text}`);
    assert.equal(lines[0]?.msg, `resubmitted ssn ${REDACTED} for ${REDACTED}`);
    // What an operator needs stays: which field it was.
    assert.match(text, /"fieldId":"individualDateOfBirth"/);
  });

  it('redacts whatever is logged under email, written as an address or not', () => {
    // The scan for address-shaped text would catch ada@example.org without the key; these only the key catches.
    const { lines, destination } = capture();
    const written = ['ada (at) example.org', 'ada.lovelace', 'ADA AT EXAMPLE DOT ORG'];
    createLogger({ service: 'worker', destination }).warn(
      { customer: { email: written[0] }, buyer: { Email: written[1] }, contact: [{ e_mail: written[2] }] },
      'customer contact refused',
    );
    const text = JSON.stringify(lines);
    for (const value of written) assert.ok(!text.includes(value), `${value} leaked: ${text}`);
    assert.deepEqual(lines[0]?.customer, { email: REDACTED });
  });

  it('keeps what an operator needs: ids, types, statuses', () => {
    const scrubbed = scrub({
      workflowId: 'kyc:AC_1',
      runId: 'r-1',
      activityType: 'sendValue',
      status: 400,
      fieldId: 'individualSsn',
    });
    assert.deepEqual(scrubbed, {
      workflowId: 'kyc:AC_1',
      runId: 'r-1',
      activityType: 'sendValue',
      status: 400,
      fieldId: 'individualSsn',
    });
  });

  it('survives cycles and deep nesting', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    assert.deepEqual(scrub(a), { name: 'a', self: '[…]' });
  });

  it('routes the Temporal SDK logs with their workflow and activity ids, honouring the level', () => {
    const { lines, destination } = capture();
    const logger = temporalLogger(createLogger({ service: 'worker', level: 'info', destination }));
    logger.debug('not shown');
    logger.log('WARN', 'activity failed', {
      workflowId: 'wallet:WA_1',
      runId: 'r-9',
      activityType: 'listWalletTransactions',
      secretKey: 'SK',
    });
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.level, 'warn');
    assert.equal(lines[0]?.workflowId, 'wallet:WA_1');
    assert.equal(lines[0]?.runId, 'r-9');
    assert.equal(lines[0]?.activityType, 'listWalletTransactions');
    assert.equal(lines[0]?.secretKey, REDACTED);
  });
});

describe('request logs', () => {
  it('serialise fastify requests with their headers redacted', () => {
    const { lines, destination } = capture();
    const req = {
      method: 'POST',
      url: '/callbacks',
      headers: { 'x-api-signature': 'abcdef', 'content-type': 'application/json' },
      socket: { remoteAddress: '127.0.0.1', remotePort: 1 },
      id: 'req-1',
    };
    createLogger({ service: 'ingress', destination }).info({ req }, 'incoming request');
    const logged = lines[0]?.req as { method: string; url: string; headers: Record<string, string> };
    assert.equal(logged.method, 'POST');
    assert.equal(logged.url, '/callbacks');
    assert.equal(logged.headers['x-api-signature'], REDACTED);
    assert.equal(logged.headers['content-type'], 'application/json');
  });
});
