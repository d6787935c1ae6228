// oidc-provider ships no type declarations; the dev identity provider uses a small part of it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
    grantId?: string;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, any>);
    issuer: string;
    proxy: boolean;
    Grant: any;
    use(middleware: (ctx: any, next: () => Promise<void>) => Promise<void> | void): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
    on(event: string, listener: (...args: any[]) => void): this;
  }
  export default Provider;
}
