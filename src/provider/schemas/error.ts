import { z } from 'zod';

// The error body that the real service documented (docs/provider-contract.md §OP-1). Empty strings
// occur for the optional fields.
export const errorType = z.enum([
  'ValidationException',
  'InsufficientFundsException',
  'TransferException',
  'MFARequiredException',
  'CustomerSupportException',
  'AccessDeniedException',
  'NotFoundException',
  'RateLimitException',
  'UnknownException',
]);
export type ErrorType = z.infer<typeof errorType>;

// Absent, empty and null all mean "not given" for the optional fields: null becomes absent, so
// that a provider error keeps its type instead of failing as an unexpected response.
const optionalText = z
  .string()
  .nullable()
  .transform((v) => v ?? undefined)
  .optional();

export const errorBody = z.object({
  language: z
    .string()
    .nullish()
    .transform((v) => v ?? 'en'),
  exceptionId: z.string(),
  type: z.string(),
  message: z.string(),
  transient: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  errorCode: optionalText,
  subType: optionalText,
  compositeType: optionalText,
  problematicField: optionalText,
  problematicValue: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** HTTP status per error type (docs/provider-contract.md §OP-1). NotFound is 404 in current docs (older docs said 400). */
export const statusByErrorType: Record<ErrorType, number> = {
  ValidationException: 400,
  InsufficientFundsException: 400,
  TransferException: 400,
  MFARequiredException: 400,
  CustomerSupportException: 400,
  AccessDeniedException: 401,
  NotFoundException: 404,
  RateLimitException: 429,
  UnknownException: 500,
};
