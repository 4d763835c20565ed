// This process's contract, shared by its workflow, checks, zod schema and client: no zod, nothing that runs.

export const kycWorkflowId = (accountId: string) => `kyc:${accountId}`;

/** The longest a personal value kept as text may be. */
export const MAX_VALUE_BYTES = 1024;

export const FIELD_ID = /^[a-z][A-Za-z0-9]+$/;

export const FIELD_ID_MESSAGE = 'fieldId must be a profile field id such as individualSsn';

export const VALUE_CONTENT_TYPE = /^text\/plain\b/;

export const VALUE_CONTENT_TYPE_MESSAGE = 'a value is stored as text/plain (use putValue)';

export const VALUE_NOT_KEYED_MESSAGE = 'a personal value needs a keyed digest (store it with putValue)';

/** Submissions per profile field in one round before support must take over: the default, and the most a start may ask. */
export { KYC_ATTEMPTS_PER_FIELD as MAX_ATTEMPTS_PER_FIELD } from '../../src/process-defaults.js';
