// Client authentication at the token endpoint: client_secret_basic (RFC 6749 2.3.1, the
// id and secret form-urlencoded inside Basic) or client_secret_post, never both at once.
import type Koa from 'koa';
import type { EntityManager } from '@mikro-orm/core';
import { OAuthError } from '../oauth-error';
import { authenticateClient } from '../clients';
import type { OAuthClient } from '../oauth.entity';

export const BASIC_CHALLENGE = 'Basic realm="token", charset="UTF-8"';

export interface PresentedClient {
  clientId: string;
  secret: string | undefined;
  viaBasic: boolean;
}

function formDecode(s: string): string {
  return decodeURIComponent(s.replace(/\+/g, ' '));
}

function unauthorized(viaBasic: boolean, description: string): OAuthError {
  return new OAuthError('invalid_client', description, { headers: viaBasic ? { 'WWW-Authenticate': BASIC_CHALLENGE } : {} });
}

export function presentedClient(ctx: Koa.Context, params: Map<string, string>): PresentedClient {
  const header = ctx.get('authorization');
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (/^Basic\b/i.test(header)) {
    let id: string;
    let secret: string;
    try {
      if (!basic) throw new Error('malformed');
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) throw new Error('malformed');
      id = formDecode(decoded.slice(0, colon));
      secret = formDecode(decoded.slice(colon + 1));
    } catch {
      throw unauthorized(true, 'The Basic credentials are malformed.');
    }
    if (params.has('client_secret'))
      throw new OAuthError('invalid_request', 'Use one client authentication method: HTTP Basic or client_secret in the body, not both.');
    if (params.has('client_id') && params.get('client_id') !== id)
      throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials.');
    return { clientId: id, secret, viaBasic: true };
  }
  const clientId = params.get('client_id');
  if (!clientId) throw unauthorized(false, 'Client authentication is required: client_id and client_secret.');
  return { clientId, secret: params.get('client_secret'), viaBasic: false };
}

export async function authenticate(em: EntityManager, presented: PresentedClient): Promise<OAuthClient> {
  if (!presented.secret) throw unauthorized(presented.viaBasic, 'Client authentication failed.');
  const client = await authenticateClient(em, presented.clientId, presented.secret);
  if (!client) throw unauthorized(presented.viaBasic, 'Client authentication failed.');
  return client;
}
