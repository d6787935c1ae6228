// OAuth clients. The login-scheme client comes from configuration (its secret is handed to
// the app by the login-scheme operation) and is written to oauth_client at start-up, so the
// table is the one place the token endpoint authenticates clients against.
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Config } from '../../config';
import { OAuthClient } from './oauth.entity';
import { hashToken, sameDigest } from './tokens';

export async function ensureLoginClient(orm: MikroORM, config: Config): Promise<void> {
  const { clientId, clientSecret, redirectUris } = config.auth.loginClient;
  await orm.em.fork().upsert(OAuthClient, {
    clientId,
    name: 'Mobile app (login scheme)',
    secretHash: hashToken(clientSecret),
    grantTypes: ['password', 'authorization_code', 'refresh_token'],
    redirectUris,
    active: true,
  });
}

/** The active client with this id and secret, or null. Constant time in the secret. */
export async function authenticateClient(em: EntityManager, clientId: string, secret: string): Promise<OAuthClient | null> {
  const digest = hashToken(secret);
  const client = clientId.length <= 100 ? await em.findOne(OAuthClient, { clientId }) : null;
  const ok = sameDigest(client?.secretHash ?? '0'.repeat(64), digest);
  return client && ok && client.active ? client : null;
}

export async function findActiveClient(em: EntityManager, clientId: string): Promise<OAuthClient | null> {
  if (!clientId || clientId.length > 100) return null;
  return em.findOne(OAuthClient, { clientId, active: true });
}
