import type { FastifyReply } from 'fastify';
import { type ErrorBody, type ErrorType, statusByErrorType } from '../provider/schemas/error.js';
import { newHex } from './ids.js';

// Failures answered with the body and status of docs/provider-contract.md §OP-1.
export class SandboxError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly extra: Partial<
      Pick<ErrorBody, 'errorCode' | 'subType' | 'problematicField' | 'problematicValue' | 'transient'>
    > = {},
  ) {
    super(message);
  }

  get status(): number {
    return statusByErrorType[this.type];
  }

  toBody(): ErrorBody {
    return {
      language: 'en',
      exceptionId: `test_${newHex(5)}`,
      type: this.type,
      message: this.message,
      transient: this.extra.transient ?? (this.type === 'RateLimitException' || this.type === 'UnknownException'),
      errorCode: this.extra.errorCode ?? '',
      subType: this.extra.subType ?? '',
      compositeType: '',
      problematicField: this.extra.problematicField ?? '',
      problematicValue: this.extra.problematicValue ?? '',
    };
  }
}

export function sendError(reply: FastifyReply, err: SandboxError, status = err.status): FastifyReply {
  return reply.code(status).type('application/json').send(err.toBody());
}

/**
 * What the web framework refused, with the provider's body and the framework's status, except that a
 * Content-Type refusal is a ValidationException, 400 (docs/provider-contract.md §OP-1), never a 415.
 */
const FRAMEWORK_ERRORS: Record<string, { field: string; message: string; status?: number }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    field: 'Content-Type',
    message: "send Content-Type: application/json (or the file's MIME type for a document)",
    status: statusByErrorType.ValidationException,
  },
  FST_ERR_CTP_EMPTY_TYPE: {
    field: 'Content-Type',
    message: 'a request with a body needs a Content-Type header',
    status: statusByErrorType.ValidationException,
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { field: 'body', message: 'the body is too large' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { field: 'Content-Length', message: 'Content-Length does not match the body' },
  FST_ERR_BAD_URL: { field: 'url', message: 'the URL is malformed (check its percent-encoding)' },
};

export function sendFrameworkError(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof SandboxError) return sendError(reply, err);
  const error = err as { code?: string; statusCode?: number; message?: string };
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  const status =
    typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  if (known) return sendError(reply, validationError(known.field, known.message, ''), known.status ?? status);
  if (status < 500)
    return sendError(reply, new SandboxError('ValidationException', error.message ?? 'bad request'), status);
  reply.log.error(err);
  return sendError(reply, new SandboxError('UnknownException', 'The sandbox failed to handle the request'), 500);
}

export const notFound = (what: string, id: string) =>
  new SandboxError('NotFoundException', `${what} ${id} was not found`, { errorCode: 'notFound' });

export function validationError(field: string, message: string, value?: unknown): SandboxError {
  return new SandboxError('ValidationException', `${field}: ${message}`, {
    errorCode: 'validation.invalidValue',
    subType: value === undefined ? 'FIELD_REQUIRED' : 'INVALID_VALUE',
    problematicField: field,
    problematicValue: value,
  });
}
