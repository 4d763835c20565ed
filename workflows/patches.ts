// The register of every patch the workflows branch on (their ids, which workflow code imports, are
// in ./patch-ids.ts). A patch stays until every run that started before it has ended (or, for a
// wallet, continued as new on code that has it); then it is deprecated (`deprecatePatch`) and later
// removed, and its entry says so.

export type PatchPhase =
  /** New runs record the marker; runs from before replay the old branch, which stays. */
  | 'patched'
  /** The old branch is gone; `deprecatePatch` keeps the marker for runs that recorded it. */
  | 'deprecated';

export interface Patch {
  readonly id: string;
  /** What the branch behind the marker does that runs from before did not. */
  readonly changed: string;
  /** The day and commit the patch was introduced in (git log -S'<id>' -- workflows). */
  readonly introduced: { readonly date: string; readonly commit: string };
  readonly phase: PatchPhase;
  /** The workflow files that call patched() with it. */
  readonly usedIn: readonly string[];
  /** Histories that replay through it, under test/histories: recorded with its marker, and from before it. */
  readonly histories: { readonly withMarker: readonly string[]; readonly before: readonly string[] };
}

import {
  DELETE_CLAIMS_PATCH,
  DRIFT_SHOWN_ON_CHANGE_PATCH,
  EXACT_LEDGER_PATCH,
  HELD_ASIDE_KEPT_PATCH,
  LEDGER_V2_PATCH,
  LOCAL_WALLET_CREATE_PATCH,
  QUIET_POLLING_PATCH,
  RECONCILE_PATCH,
  RECORDS_BOUNDED_PATCH,
  REMINDERS_WHILE_OWED_PATCH,
  UNKNOWN_WALLET_PATCH,
  WALLET_PATCHES_AS_ONE_2_PATCH,
  WALLET_PATCHES_AS_ONE_PATCH,
} from './patch-ids.js';

export * from './patch-ids.js';

export const PATCHES: readonly Patch[] = [
  {
    id: DELETE_CLAIMS_PATCH,
    changed: 'KYC, the ACH follow-up and provisioning delete the claims they are done with (a housekeeping activity).',
    introduced: { date: '2026-11-22', commit: '37f9e2c' },
    phase: 'patched',
    usedIn: ['workflows/lib/claims.ts'],
    histories: {
      withMarker: [
        'ach-followup/ach-reminders-before-shared-reminders.json',
        'ach-followup/ach-reminders.json',
        'kyc/kyc-attempts-exhausted.json',
        'kyc/kyc-refused.json',
      ],
      before: [],
    },
  },
  {
    id: LEDGER_V2_PATCH,
    changed: 'The wallet carries its ledger across continue-as-new in its second shape (settled records with amounts).',
    introduced: { date: '2026-11-22', commit: '05afa61' },
    phase: 'patched',
    usedIn: ['workflows/wallet/run-patches.ts'],
    histories: {
      withMarker: [
        'wallet/wallet-continued-before-quiet-polling.json',
        'wallet/wallet-continued-quiet-polling.json',
        'wallet/wallet-continued-exact-ledger.json',
        'wallet/wallet-continued-held-aside-kept.json',
      ],
      before: ['wallet/wallet-carried-v1.json'],
    },
  },
  {
    id: RECONCILE_PATCH,
    changed: "The wallet compares its ledger with the provider's balances at an interval.",
    introduced: { date: '2026-11-22', commit: '4a1e7ed' },
    phase: 'patched',
    usedIn: ['workflows/wallet/run-patches.ts'],
    histories: {
      withMarker: [
        'wallet/wallet-before-quiet-polling.json',
        'wallet/wallet-quiet-polling.json',
        'wallet/wallet-exact-ledger.json',
        'wallet/wallet-held-aside-kept.json',
      ],
      before: ['wallet/wallet.json', 'wallet/wallet-carried-v1.json'],
    },
  },
  {
    id: UNKNOWN_WALLET_PATCH,
    changed: 'A wallet follower ends (UNKNOWN_WALLET) after NOT_FOUND_LIMIT not-found polls in a row.',
    introduced: { date: '2026-11-22', commit: '6390290' },
    phase: 'patched',
    usedIn: ['workflows/wallet/run-patches.ts'],
    histories: { withMarker: ['wallet/wallet-unknown-before-carried-result.json'], before: [] },
  },
  {
    id: REMINDERS_WHILE_OWED_PATCH,
    changed: "ACH and onboarding remind through KYC's loop (remindWhileOwed) instead of loops of their own.",
    introduced: { date: '2026-11-24', commit: 'c7d7fcf' },
    phase: 'patched',
    usedIn: ['workflows/ach-followup/workflow.ts', 'workflows/onboarding/workflow.ts'],
    histories: {
      withMarker: ['ach-followup/ach-reminders.json', 'onboarding/onboarding-reminders.json'],
      before: [
        'ach-followup/ach-reminders-before-shared-reminders.json',
        'onboarding/onboarding-reminders-before-shared-reminders.json',
      ],
    },
  },
  {
    id: QUIET_POLLING_PATCH,
    changed:
      'A wallet polls through a watch that slows while quiet, polls from a cursor, skips the first poll of a wallet just opened, and carries its pace, cursor and reconciliation. Runs from before it follow their wallet as they did in one legacy module (workflows/wallet/legacy-polling.ts), chosen once at the marker.',
    introduced: { date: '2026-11-24', commit: '1e881d8' },
    phase: 'patched',
    usedIn: ['workflows/wallet/run-patches.ts'],
    histories: {
      withMarker: [
        'wallet/wallet-quiet-polling.json',
        'wallet/wallet-continued-quiet-polling.json',
        'wallet/wallet-held-aside-kept.json',
        'wallet/wallet-continued-held-aside-kept.json',
      ],
      before: [
        'wallet/wallet.json',
        'wallet/wallet-carried-v1.json',
        'wallet/wallet-before-quiet-polling.json',
        'wallet/wallet-continued-before-quiet-polling.json',
      ],
    },
  },
  {
    id: EXACT_LEDGER_PATCH,
    changed:
      'The wallet counts exact decimal amounts, carries them as decimal strings, bounds provider times by its now and repairs horizons and cursors carried past it.',
    introduced: { date: '2026-11-25', commit: '31138d6' },
    phase: 'patched',
    usedIn: ['workflows/wallet/run-patches.ts'],
    histories: {
      withMarker: [
        'wallet/wallet-exact-ledger.json',
        'wallet/wallet-continued-exact-ledger.json',
        'wallet/wallet-carried-v2.json',
        'wallet/wallet-unknown-before-carried-result.json',
        'wallet/wallet-held-aside-kept.json',
        'wallet/wallet-continued-held-aside-kept.json',
      ],
      before: [
        'wallet/wallet-reconcile-false-drift-before-exact-ledger.json',
        'wallet/wallet-reconcile-float-residue-before-exact-ledger.json',
      ],
    },
  },
  {
    id: LOCAL_WALLET_CREATE_PATCH,
    changed: 'Opening a wallet creates it at the provider in a local activity, recorded in its workflow task.',
    introduced: { date: '2026-11-26', commit: 'fc0f45b' },
    phase: 'patched',
    usedIn: ['workflows/wallet/open-with-child.ts'],
    histories: {
      withMarker: ['wallet/open-wallet-local-create.json', 'wallet/open-wallet-held-aside-kept.json'],
      before: [
        'wallet/open-wallet.json',
        'wallet/open-wallet-before-quiet-polling.json',
        'wallet/open-wallet-quiet-polling.json',
        'wallet/open-wallet-exact-ledger.json',
      ],
    },
  },
  {
    id: HELD_ASIDE_KEPT_PATCH,
    changed:
      'A transaction held aside for an impossible createdAt keeps its settled record for as long as the wallet lives, outside the record bound, so that a resend is never counted again.',
    introduced: { date: '2026-11-26', commit: '87e5ca5' },
    phase: 'patched',
    usedIn: ['workflows/wallet/run-patches.ts'],
    histories: {
      withMarker: ['wallet/wallet-held-aside-kept.json', 'wallet/wallet-continued-held-aside-kept.json'],
      before: [
        'wallet/wallet-exact-ledger.json',
        'wallet/wallet-continued-exact-ledger.json',
        'wallet/wallet-carried-v2.json',
      ],
    },
  },
  {
    id: RECORDS_BOUNDED_PATCH,
    changed:
      'The settled records are trimmed to their bound even while more entries are pending than the recent ones kept, so that pending transactions dropped to records cannot carry the ledger past 10,000 records.',
    introduced: { date: '2026-11-27', commit: '7b4335d' },
    phase: 'patched',
    usedIn: ['workflows/wallet/run-patches.ts'],
    histories: {
      withMarker: ['wallet/open-wallet-records-bounded.json'],
      before: ['wallet/open-wallet-one-workflow.json', 'wallet/wallet-held-aside-kept.json'],
    },
  },
  {
    id: DRIFT_SHOWN_ON_CHANGE_PATCH,
    changed:
      "A wallet's reconciliation writes BalanceDrift only when it differs from what the run shows (unset counts as false), instead of at every reconciliation: an idle wallet's 4 visibility writes a day. Asked at each reconciliation of today's loop (its marker costs one TemporalChangeVersion upsert a run); runs from before quiet polling write it every time, as they did.",
    introduced: { date: '2026-11-27', commit: '1668909' },
    phase: 'patched',
    usedIn: ['workflows/wallet/run-patches.ts'],
    histories: {
      withMarker: ['wallet/open-wallet-drift-shown-on-change.json'],
      before: [
        'wallet/wallet-reconcile-false-drift-before-exact-ledger.json',
        'wallet/wallet-reconcile-float-residue-before-exact-ledger.json',
      ],
    },
  },
  {
    id: WALLET_PATCHES_AS_ONE_PATCH,
    changed:
      'A wallet run takes the branch of every wallet patch above (quiet polling, exact ledger, held aside kept, records bounded, reconcile, ends when unknown, drift shown on change) on this one marker, asked first, instead of a marker each: each marker is a history event and a TemporalChangeVersion upsert, that is a visibility write, so a run start wrote six. With it, a run writes ProcessStatus TRACKING and its WalletId only when it does not show them (a run continued as new does). Runs recorded before it ask each patch as they recorded it.',
    introduced: { date: '2026-11-27', commit: '7e98748' },
    phase: 'patched',
    usedIn: ['workflows/wallet/run-patches.ts'],
    histories: {
      withMarker: [
        'wallet/open-wallet-patches-as-one.json',
        'wallet/open-wallet-patches-as-one-continued.json',
        'wallet/wallet-patches-as-one-next-run.json',
      ],
      before: [
        'wallet/open-wallet-drift-shown-on-change.json',
        'wallet/open-wallet-records-bounded.json',
        'wallet/open-wallet-one-workflow-continued.json',
      ],
    },
  },
  {
    id: WALLET_PATCHES_AS_ONE_2_PATCH,
    changed:
      "Every branch of wallet-patches-as-one, on one marker asked before it, and the watch's first wait kept through callbacks: a wallet's first poll comes one interval after its watch started, with the retry policy of the wallet's state then, where runs before it cancelled the wait's timer and started another for every callback that moved a transaction in or out of pending (two commands, and a timer task, per callback).",
    introduced: { date: '2026-11-27', commit: '717ae28' },
    phase: 'patched',
    usedIn: ['workflows/wallet/run-patches.ts'],
    histories: {
      withMarker: [
        'wallet/open-wallet-patches-as-one-2.json',
        'wallet/open-wallet-patches-as-one-2-continued.json',
        'wallet/wallet-patches-as-one-2-next-run.json',
      ],
      before: [
        'wallet/open-wallet-patches-as-one.json',
        'wallet/open-wallet-patches-as-one-continued.json',
        'wallet/wallet-patches-as-one-next-run.json',
      ],
    },
  },
];
