import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import type { Payload } from '@temporalio/common';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { z } from 'zod';
import { fileOf, textOf } from '../../scripts/message-schemas.js';
import { HISTORIES_DIR, recordedHistories } from '../../scripts/lib/history-file.js';
import { INTERNAL_WORKFLOWS, PROCESSES } from '../../scripts/lib/message-processes.js';
import { decimal } from '../../src/decimal.js';
import { CANONICAL_DECIMAL } from '../../workflows/lib/messages.schema.js';
import type { observation } from '../../workflows/wallet/messages.schema.js';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import type { Observation } from '../../src/provider/transaction-observation.js';
import { newAchState } from '../../workflows/ach-followup/review.js';
import { newCheckoutState } from '../../workflows/checkout/rules.js';
import { applyProfile, newKycState } from '../../workflows/kyc/fields.js';
import { floatTotalsFrom } from '../../workflows/wallet/legacy-float-ledger.js';
import { balances, emptyLedger, recent, record } from '../../workflows/wallet/ledger.js';
import { decrypted } from '../helpers/history.js';

// schemas/messages/*.json, as a backend in another language uses them: each file compiles with a
// JSON Schema 2020-12 validator (ajv), its $defs take what the workflows really send and return
// (the pure state builders, and every message in the recorded histories) and refuse a float
// amount or a bad id; no workflow, query, update or signal is left out; the package ships them.

type JsonSchema = Record<string, unknown> & { $id: string; $defs: Record<string, unknown> };
type Described = {
  workflowId: { template: string; pattern: string };
  input: string;
  result: string;
  queries: Record<string, { answer: string }>;
  updates: Record<string, { args: string[]; answer: string }>;
  signals: Record<string, { args: string[] }>;
  failures: Record<string, { when: string; details?: string }>;
};

const files = PROCESSES.map((p) => JSON.parse(readFileSync(fileOf(p), 'utf8')) as JsonSchema);
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
addFormats.default(ajv);
ajv.addKeyword('x-payflows');
for (const file of files) ajv.addSchema(file);

const byProcess = Object.fromEntries(PROCESSES.map((p, i) => [p.process, files[i]!]));
const described = (process: string) =>
  (byProcess[process]!['x-payflows'] as { workflows: Record<string, Described> }).workflows;
/** The validator of `#/$defs/<name>` in a process's file, or of a `#/$defs/...` pointer. */
function validator(process: string, name: string) {
  const pointer = name.startsWith('#') ? name : `#/$defs/${name}`;
  const validate = ajv.getSchema(`${byProcess[process]!.$id}${pointer}`);
  assert.ok(validate, `${process}.json has ${pointer}`);
  return validate;
}
function assertValid(process: string, name: string, value: unknown, what = name) {
  const validate = validator(process, name);
  assert.ok(
    validate(value),
    `${what} (${process} ${name}): ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`,
  );
}
function assertRefused(process: string, name: string, value: unknown, what: string) {
  assert.equal(validator(process, name)(value), false, `${process} ${name} refuses ${what}`);
}

// The zod schema of a signalled observation and the workflow's type of it agree both ways.
type Agrees<A extends B, B> = A;
export type ObservationAgrees = [
  Agrees<z.output<typeof observation>, Observation>,
  Agrees<Observation, z.output<typeof observation>>,
];

describe('the message schemas (schemas/messages)', () => {
  it('are what the zod schemas make now (npm run schemas)', () => {
    for (const p of PROCESSES) assert.equal(readFileSync(fileOf(p), 'utf8'), textOf(p), fileOf(p));
  });

  it('are JSON Schema 2020-12 whose every $def compiles, and every pointer of x-payflows is one of them', () => {
    for (const [i, file] of files.entries()) {
      const process = PROCESSES[i]!.process;
      assert.equal(file.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(file.$id, `https://payflows.dev/schemas/messages/${process}.json`);
      for (const name of Object.keys(file.$defs)) {
        assert.match(name, /^[A-Z][A-Za-z]+$/, 'PascalCase');
        validator(process, name);
      }
      const pointers = JSON.stringify(file['x-payflows']).match(/#\/\$defs\/[A-Za-z]+/g) ?? [];
      assert.ok(pointers.length > 0);
      for (const pointer of pointers) validator(process, pointer);
    }
  });

  it('write patterns that Go (RE2), Python and unicode JavaScript read: no lookaround, no backreference', () => {
    for (const file of files) {
      const patterns = JSON.stringify(file).match(/"pattern":"(?:[^"\\]|\\.)*"/g) ?? [];
      assert.ok(patterns.length > 0);
      for (const pattern of patterns) {
        assert.doesNotMatch(pattern, /\(\?<?[=!]|\\\\[1-9]/, pattern);
        // ECMA-262 with the u flag, as JSON Schema validators in JavaScript read it.
        assert.doesNotThrow(() => new RegExp(JSON.parse(`{${pattern}}`).pattern as string, 'u'), pattern);
      }
    }
  });

  it('name every workflow a backend starts, with the updates, queries and signals its messages define', async () => {
    // workflows/index.ts exports the wallet's follower and everything of workflows/processes.ts.
    const index = ['workflows/index.ts', 'workflows/processes.ts'].map((f) => readFileSync(f, 'utf8')).join('\n');
    const exported = [...index.matchAll(/^export \{ (\w+) \} from '\.\/([\w/-]+)\.js';$/gm)];
    assert.ok(exported.length >= 8, 'workflows/index.ts exports its workflows');
    const listed = PROCESSES.flatMap((p) => p.workflows.map((wf) => wf.type));
    assert.deepEqual(
      exported.map(([, name]) => name).sort(),
      [...listed, ...INTERNAL_WORKFLOWS].sort(),
      'each workflow of workflows/index.ts is in a schema file or named internal',
    );
    for (const p of PROCESSES) {
      const handlers = p.workflows.flatMap((wf) => [
        ...(wf.queries ?? []),
        ...(wf.updates ?? []),
        ...(wf.signals ?? []),
      ]);
      const dir = p.process === 'wallet' ? 'wallet' : p.process;
      const messages = (await import(`../../workflows/${dir}/messages.js`)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(messages)) {
        const kind = (value as { type?: unknown } | null)?.type;
        if (kind === 'query' || kind === 'update' || kind === 'signal')
          assert.ok(
            handlers.some((h) => h.definition === value),
            `workflows/${dir}/messages.ts ${name} is in ${p.process}.json`,
          );
      }
      // Every process that polls the provider takes the refresh signal (workflows/lib/process.ts).
      for (const wf of p.workflows) {
        const source = readFileSync(`workflows/${exported.find(([, n]) => n === wf.type)![2]}.ts`, 'utf8');
        assert.equal(
          'refresh' in described(p.process)[wf.type]!.signals,
          source.includes('pollProvider('),
          `${wf.type}: refresh`,
        );
      }
    }
  });

  it('name failure types that workflow code raises', () => {
    const workflowCode = (dir: string): string =>
      readdirSync(dir, { withFileTypes: true })
        .map((f) => (f.isDirectory() ? workflowCode(`${dir}/${f.name}`) : readFileSync(`${dir}/${f.name}`, 'utf8')))
        .join('\n');
    const code = workflowCode('workflows');
    for (const p of PROCESSES)
      for (const wf of p.workflows)
        for (const failure of wf.failures) assert.ok(code.includes(`'${failure.type}'`), `${wf.type}: ${failure.type}`);
  });

  it('give each workflow id a template and a pattern that the id functions agree with', () => {
    const keys: Record<string, [good: string, bad: string]> = {
      kycWorkflow: ['AC_1a', 'US_1a'],
      achFollowupWorkflow: ['PM-77', 'AC_77'],
      onboardingWorkflow: ['user-4711', 'user 4711'],
      checkoutWorkflow: ['order.1', 'order/1'],
      provisioningWorkflow: ['device_1', 'device:1'],
      openWalletWorkflow: ['user-4711', ''],
      walletWorkflow: ['WA_9', 'WA_'],
    };
    for (const p of PROCESSES)
      for (const wf of p.workflows) {
        const { template, pattern } = described(p.process)[wf.type]!.workflowId;
        const [good, bad] = keys[wf.type]!;
        assert.equal(template.replace(`{${wf.idField}}`, good), wf.workflowId(good));
        // As a JSON Schema validator reads a pattern: a unicode regex (ECMA-262 with the u flag).
        assert.match(wf.workflowId(good), new RegExp(pattern, 'u'), wf.type);
        assert.doesNotMatch(wf.workflowId(bad), new RegExp(pattern, 'u'), wf.type);
      }
  });

  it('take the states that the pure state builders make', () => {
    const kyc = newKycState({ accountId: 'AC_1', maxAttemptsPerField: 3, priorSubmissions: {} });
    applyProfile(kyc, {
      accountId: 'AC_1',
      status: 'PENDING',
      fields: [
        { fieldId: 'individualSsn', fieldType: 'STRING', status: 'OPEN', note: 'SSN does not match' },
        { fieldId: 'individualGovernmentId', fieldType: 'DOCUMENT', status: 'APPROVED', note: null },
      ],
    });
    assertValid('kyc', 'KycState', kyc);
    assertValid('kyc', 'KycField', kyc.fields[0]);
    assertValid('ach-followup', 'AchState', newAchState('PA_1'));
    assertValid('checkout', 'CheckoutState', newCheckoutState('order-1'));
    assertValid('checkout', 'CheckoutStatus', newCheckoutState('order-1'));

    // The wallet query's answer, as the workflow builds it from its ledger.
    const ledger = emptyLedger('WA_1');
    const tx = { id: 'TR_1', createdAt: Date.now(), source: 'ext:x', dest: 'wallet:WA_1', currency: 'BTC' };
    record(ledger, { ...tx, amount: '0.12345678', status: 'CONFIRMED', confirmedAt: Date.now() }, 'callback');
    record(ledger, { ...tx, id: 'TR_2', amount: '5', status: 'PENDING', confirmedAt: null }, 'poll');
    const view = {
      walletId: 'WA_1',
      name: 'user-4711',
      balances: balances(ledger),
      recentTransactions: recent(ledger, 20),
      stats: { ...ledger.stats },
      queued: 0,
      reconciliation: { checkedAt: Date.now(), drift: [{ currency: 'BTC', ledger: '0.12345678', provider: '0.2' }] },
    };
    assertValid('wallet', 'WalletView', view);
    assertValid('wallet', 'WalletBalances', view.balances);
    assertValid('wallet', 'LedgerState', ledger);
    assert.deepEqual(view.balances.BTC, { confirmed: '0.12345678', pending: '5' });
  });

  it("mark a run from before exact amounts' floating-point totals deprecated, never money, and still take them", () => {
    // Such a run carries and returns them beside the exact ledger (wallet/legacy-float-ledger.ts):
    // the schema takes its ledger, and says a backend must not read them as amounts.
    const ledgerDef = byProcess.wallet!.$defs.LedgerState as { properties: Record<string, Record<string, unknown>> };
    const floatTotals = ledgerDef.properties.floatTotals!;
    assert.equal(floatTotals.deprecated, true);
    assert.match(String(floatTotals.description), /approximate.*never.*money/is);
    const ledger = emptyLedger('WA_1');
    const tx = { id: 'TR_1', createdAt: Date.now(), source: 'ext:x', dest: 'wallet:WA_1', currency: 'BTC' };
    record(ledger, { ...tx, amount: '0.1', status: 'CONFIRMED', confirmedAt: Date.now() }, 'callback');
    assertValid('wallet', 'LedgerState', {
      ...ledger,
      floatTotals: floatTotalsFrom({ settledTotals: { BTC: '0.3' } }),
    });
  });

  it('refuse a float amount, a bad id, a field the workflow never sends and a missing one', () => {
    assertRefused('wallet', 'WalletBalances', { BTC: { confirmed: 0.1, pending: '0' } }, 'a float amount');
    assertRefused('wallet', 'Balance', { confirmed: '1.50', pending: '0' }, 'a decimal that is not canonical');
    assertRefused('wallet', 'Drift', { currency: 'BTC', ledger: '-0', provider: '0' }, '"-0"');
    const deposit = {
      id: 'TR_1',
      createdAt: 1,
      source: 'ext:x',
      dest: 'wallet:WA_1',
      currency: 'BTC',
      status: 'PENDING',
    };
    assertValid('wallet', 'Observation', { ...deposit, amount: '1.5' });
    assertRefused('wallet', 'Observation', { ...deposit, amount: 1.5 }, 'a float amount');
    assertRefused('wallet', 'Observation', { ...deposit, amount: '1.5', id: 'WA_1' }, 'a wallet id for a transaction');
    const order = { orderRef: 'order-1', sourceCurrency: 'USD', destCurrency: 'BTC', dest: 'wallet:WA_1' };
    assertValid('checkout', 'CheckoutInput', { ...order, sourceAmount: '49.99' });
    assertRefused('checkout', 'CheckoutInput', { ...order, sourceAmount: 49.99 }, 'a float amount');
    assertRefused('checkout', 'CheckoutInput', { ...order, sourceAmount: '-5' }, 'a negative amount');
    assertRefused('checkout', 'CheckoutInput', { ...order, sourceAmount: '0' }, 'a zero amount');
    assertRefused('checkout', 'CheckoutInput', { ...order, sourceAmount: '5', dest: 'wallet:XX_1' }, 'a bad dest');
    assertRefused('checkout', 'CheckoutInput', { ...order, sourceAmount: '5', email: 'a@b.c' }, 'personal data');
    assertValid('kyc', 'KycInput', { accountId: 'AC_1' });
    assertRefused('kyc', 'KycInput', { accountId: 'WA_1' }, 'a wallet id for an account');
    assertRefused('onboarding', 'OnboardingInput', { userRef: 'u1', country: 'usa' }, 'a bad country');
    const state = newAchState('PA_1');
    assertRefused('ach-followup', 'AchState', { ...state, extra: 1 }, 'a field the workflow never sends');
    const { stage: _stage, ...noStage } = state;
    assertRefused('ach-followup', 'AchState', noStage, 'a missing field');
    assertRefused('kyc', 'ClaimStoreFailedDetails', { field: 'x', reason: 'lost', type: 'E' }, 'an unknown reason');
  });

  it('match the amounts src/decimal.ts writes', () => {
    for (const value of ['0', '-0', '1.50', '0.000001', '-12.3400', '1e-7', '161176780.13', '100'])
      assert.match(decimal(value), CANONICAL_DECIMAL, value);
  });

  /**
   * The checkout and onboarding histories were recorded before amounts were exact: the client sent
   * a purchase's amount as the JSON number it was given (the workflow still takes one, but the
   * schema asks for the decimal string the client sends now), and the provider's limits came back
   * as numbers, which such a run still returns in its result. Read as the current code writes them.
   */
  const exactAmounts = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const object = value as Record<string, unknown>;
    if (typeof object.sourceAmount === 'number') object.sourceAmount = decimal(object.sourceAmount);
    const limits = object.limits as Record<string, unknown> | null | undefined;
    for (const [key, amount] of Object.entries(limits ?? {}))
      if (typeof amount === 'number') limits![key] = decimal(amount);
    return value;
  };

  // A failure type that no code raises any more: kyc-refused.json was recorded before an update's
  // failures were typed by whose they are (workflows/lib/refusal.ts).
  const RETIRED_FAILURES = ['SubmissionFailed'];

  it('take every message of the recorded histories of current runs', async () => {
    const key = readFileSync(join(HISTORIES_DIR, 'payload-key.txt'), 'utf8').trim();
    const codec = new EncryptionCodec(Buffer.from(key, 'base64'));
    const typeOf = new Map(PROCESSES.flatMap((p) => p.workflows.map((wf) => [wf.type as string, p.process])));
    // Recorded before a change, or carrying a ledger from then: their runs still replay, but a run
    // started now sends and returns none of it. The wallet's, but for *-exact-ledger, were recorded
    // before exact amounts: their signals carry the whole callback, its amount a number.
    const before = /-before-|carried-v[12]|^wallet(?!.*exact-ledger)/;
    const histories = recordedHistories().filter((file) => !before.test(basename(file)));
    assert.ok(histories.length >= 20);
    const seen = new Set<string>();
    for (const name of histories) {
      const history = await decrypted(historyFromJSON(JSON.parse(readFileSync(name, 'utf8'))), codec);
      const values = (payloads: { payloads?: Payload[] | null } | null | undefined) =>
        (payloads?.payloads ?? []).map((p) =>
          p.data?.length ? exactAmounts(JSON.parse(Buffer.from(p.data).toString('utf8')) as unknown) : null,
        );
      let type = '';
      const updates = new Map<string, string>();
      for (const event of history.events ?? []) {
        const e = event as temporal.api.history.v1.IHistoryEvent;
        const check = (pointer: string, value: unknown, what: string) => {
          assertValid(typeOf.get(type)!, pointer, value, `${name}: ${what}`);
          seen.add(`${type} ${what}`);
        };
        const wf = () => described(typeOf.get(type)!)[type]!;
        if (e.workflowExecutionStartedEventAttributes) {
          type = e.workflowExecutionStartedEventAttributes.workflowType!.name!;
          assert.ok(typeOf.has(type), `${name}: ${type} is in a schema file`);
          check(wf().input, values(e.workflowExecutionStartedEventAttributes.input)[0], 'input');
        }
        const accepted = e.workflowExecutionUpdateAcceptedEventAttributes;
        if (accepted) {
          const update = accepted.acceptedRequest!.input!.name!;
          updates.set(accepted.protocolInstanceId!, update);
          const args = values(accepted.acceptedRequest!.input!.args);
          assert.equal(args.length, wf().updates[update]!.args.length, `${name}: ${update} args`);
          args.forEach((arg, i) => check(wf().updates[update]!.args[i]!, arg, `update ${update} args`));
        }
        const completed = e.workflowExecutionUpdateCompletedEventAttributes;
        if (completed?.outcome?.success) {
          const update = updates.get(completed.meta!.updateId!)!;
          check(wf().updates[update]!.answer, values(completed.outcome.success)[0], `update ${update} answer`);
        }
        const failure = completed?.outcome?.failure?.applicationFailureInfo;
        if (failure && !RETIRED_FAILURES.includes(failure.type!)) {
          const declared = wf().failures[failure.type!];
          assert.ok(declared, `${name}: ${type} declares ${failure.type}`);
          if (declared.details) check(declared.details, values(failure.details)[0], `failure ${failure.type}`);
        }
        const signal = e.workflowExecutionSignaledEventAttributes;
        if (signal) {
          const args = values(signal.input);
          assert.ok(wf().signals[signal.signalName!], `${name}: ${type} declares the ${signal.signalName} signal`);
          args.forEach((arg, i) =>
            check(wf().signals[signal.signalName!]!.args[i]!, arg, `signal ${signal.signalName}`),
          );
        }
        const result = e.workflowExecutionCompletedEventAttributes;
        if (result) check(wf().result, values(result.result)[0], 'result');
        const continued = e.workflowExecutionContinuedAsNewEventAttributes;
        if (continued) check(wf().input, values(continued.input)[0], 'input carried on');
      }
    }
    // The histories hold every kind of message a backend meets: the check above saw each.
    for (const kind of [
      'checkoutWorkflow update hostedPage answer',
      'kycWorkflow result',
      'walletWorkflow signal transaction',
    ])
      assert.ok(seen.has(kind), `${kind}: seen in ${[...seen].sort().join(', ')}`);
  });

  it('are in the package', () => {
    const [pack] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: 'pipe' }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const packed = pack!.files.map((f) => f.path);
    for (const p of PROCESSES) assert.ok(packed.includes(fileOf(p)), `${fileOf(p)} is packed`);
  });
});
