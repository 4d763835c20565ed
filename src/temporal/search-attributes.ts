import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Custom search attributes that make the Temporal UI's workflow list filterable. Pure, so that
// workflows import it too. The dev server registers exactly these; never put personal data here.
export const ProcessStatus = defineSearchAttributeKey('ProcessStatus', SearchAttributeType.KEYWORD);
export const WalletId = defineSearchAttributeKey('WalletId', SearchAttributeType.KEYWORD);
export const AccountId = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const UserId = defineSearchAttributeKey('UserId', SearchAttributeType.KEYWORD);
export const WaitingOnEndUser = defineSearchAttributeKey('WaitingOnEndUser', SearchAttributeType.BOOL);
/** A wallet whose ledger and the provider's balances disagreed at the last reconciliation. */
export const BalanceDrift = defineSearchAttributeKey('BalanceDrift', SearchAttributeType.BOOL);

export const allSearchAttributes = [ProcessStatus, WalletId, AccountId, UserId, WaitingOnEndUser, BalanceDrift];

const cliTypeNames: Record<string, string> = {
  KEYWORD: 'Keyword',
  BOOL: 'Bool',
  TEXT: 'Text',
  INT: 'Int',
  DOUBLE: 'Double',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** `--search-attribute Name=Type` arguments for `temporal server start-dev`. */
export function searchAttributeCliArgs(): string[] {
  return allSearchAttributes.flatMap((k) => ['--search-attribute', `${k.name}=${cliTypeNames[k.type]}`]);
}
