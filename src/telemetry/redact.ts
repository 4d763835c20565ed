// What a log line must never carry: secrets, signatures, personal data, document bytes, onboarding
// links. Fields are matched by name at any depth (pino's redaction takes fixed paths only), the
// provider's `{ fieldId, value }` by its id, and strings scanned for SSNs and e-mail addresses.

export const REDACTED = '[redacted]';

/** Field names (compared without case, dashes or underscores) whose values are never logged. */
const SENSITIVE_KEYS = new Set(
  [
    'authorization',
    'x-api-signature',
    'x-api-key',
    'signature',
    'secret',
    'secretKey',
    'secrets',
    'apiKey',
    'token',
    'accessToken',
    'password',
    'ssn',
    'individualSsn',
    'taxId',
    'bytes',
    'document',
    'documentBytes',
    'onboardingLink',
    'link',
    'encryptionKey',
    'payloadEncryptionKey',
    'claimEncryptionKey',
    // Names. Not a bare `name`: it names wallets, types and errors, references, never people.
    'legalName',
    'individualLegalName',
    'fullName',
    'firstName',
    'lastName',
    'givenName',
    'familyName',
    'middleName',
    'holderName',
    'accountHolderName',
    // E-mail and postal addresses. Not a bare `address`: it is Temporal's or a blockchain's.
    'email',
    'emailAddress',
    'residenceAddress',
    'individualResidenceAddress',
    'postalAddress',
    'homeAddress',
    'mailingAddress',
    'billingAddress',
    'streetAddress',
    'street',
    'addressLine1',
    'addressLine2',
    'postalCode',
    'zip',
    'zipCode',
    // The contract's own names: a wallet's verificationData, a reservation's buyer, the limits address.
    'street1',
    'street2',
    'city',
    'phone',
    'phoneNumber',
    // Dates of birth and identity documents.
    'dateOfBirth',
    'individualDateOfBirth',
    'birthDate',
    'dob',
    'birthDay',
    'birthMonth',
    'birthYear',
    'passport',
    'passportNumber',
    'passportNo',
    'documentNumber',
    'idNumber',
    // The contract's KYC profile field ids (docs/provider-contract.md §2.3, §OP-4) when they are keys.
    'individualSourceOfFunds',
    'individualGovernmentId',
    'individualProofOfAddress',
    'individualAchAuthorizationForm',
  ].map(normalise),
);

function normalise(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(normalise(key));
}

/**
 * A profile field id whose value is personal data: a sensitive name, or any individual* field (the
 * contract's KYC fields are an individual's data, one not listed here yet included).
 */
function isPersonalFieldId(fieldId: string): boolean {
  return isSensitiveKey(fieldId) || /^individual[A-Z]/.test(fieldId);
}

// 123-45-6789, 123 45 6789 or 123456789 standing alone: the shapes an SSN is written in.
const SSN = /\b\d{3}([- ])\d{2}\1\d{4}\b|(?<![\d.])\d{9}(?![\d.])/g;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

export function scrubString(value: string): string {
  return value.replace(SSN, REDACTED).replace(EMAIL, REDACTED);
}

/** A copy of `value` with sensitive fields and SSN-shaped strings replaced; cycles and depth bounded. */
export function scrub(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubString(value);
  if (value === null || typeof value !== 'object') return value;
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return REDACTED;
  if (seen.has(value) || depth > 8) return '[…]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1, seen));
  if (value instanceof Error) {
    return {
      type: value.name,
      message: scrubString(value.message),
      ...(value.stack ? { stack: scrubString(value.stack) } : {}),
    };
  }
  const out: Record<string, unknown> = {};
  // The provider's profile field, `{ fieldId: 'individualDateOfBirth', value }`: its id says what the value is.
  const { fieldId } = value as { fieldId?: unknown };
  const personalField = typeof fieldId === 'string' && isPersonalFieldId(fieldId);
  for (const [key, item] of Object.entries(value))
    out[key] = isSensitiveKey(key) || (personalField && key === 'value') ? REDACTED : scrub(item, depth + 1, seen);
  return out;
}
