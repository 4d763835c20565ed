// The few parts of oidc-provider 8 (which ships no types) that the stand-in identity provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id: string };
  }
  export interface Grant {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }
  export interface KoaContext {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      params?: Record<string, unknown>;
    };
  }
  export interface IssuedToken {
    kind: string;
    accountId?: string;
    clientId: string;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    Grant: {
      new (init: { accountId?: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
  }
  export const errors: { InvalidTarget: new (description?: string) => Error };
}
