import type { FastifyReply } from 'fastify';
import { type ErrorBody, type ErrorType, statusByErrorType } from '../provider/schemas/error.js';
import { newHex } from './ids.js';

// Failures answered with the body and status of open-points.md ("Errors").
export class SandboxError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly extra: Partial<Pick<ErrorBody, 'errorCode' | 'subType' | 'problematicField' | 'problematicValue' | 'transient'>> = {},
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

export function sendError(reply: FastifyReply, err: SandboxError): FastifyReply {
  return reply.code(err.status).type('application/json').send(err.toBody());
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
