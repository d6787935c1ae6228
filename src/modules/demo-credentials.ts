// The demo tenant's credentials are published (docs/getting-started.md, the start-up banner,
// src/db/demo.ts): on a database once seeded in development they would open a production service
// to anyone who read the docs. Production start-up looks for each (server.ts) and refuses to
// serve while one is stored, unless ALLOW_DEMO_CREDENTIALS says so. A row is named whatever its
// state (an inactive key, a revoked token): the fix is to delete it or change its secret.
//
// Cheap: three lookups by indexed hash, one by the five demo user ids, and one argon2
// verification per distinct password hash among those users (the seed gives them one).
import type { MikroORM } from '@mikro-orm/core';
import { DEMO_LOGIN_CLIENT, DEV_IDP_CLIENT } from '../config';
import { DEMO_COMPANY_API_KEY, DEMO_INACTIVE_COMPANY_API_KEY, DEMO_INGESTION_TOKEN, DEMO_PASSWORD, DEMO_USERS } from '../db/demo';
import { CompanyApiKey } from './company';
import { hashToken, OAuthClient, SystemToken, verifyPassword } from './identity';
import { User } from './user';

/**
 * Each published demo credential the database holds, named for the operator. `configuredClientId`
 * is the login client of this configuration: start-up writes its configured secret over whatever
 * the row held, so it is not counted.
 */
export async function findDemoCredentials(orm: MikroORM, configuredClientId: string): Promise<string[]> {
  const em = orm.em.fork();
  const found: string[] = [];

  const clientSecrets = new Map([
    [hashToken(DEMO_LOGIN_CLIENT.clientSecret), DEMO_LOGIN_CLIENT.clientSecret],
    [hashToken(DEV_IDP_CLIENT.clientSecret), DEV_IDP_CLIENT.clientSecret],
  ]);
  const clients = await em.find(OAuthClient, { secretHash: { $in: [...clientSecrets.keys()] } }, { orderBy: { clientId: 'asc' } });
  for (const c of clients)
    if (c.clientId !== configuredClientId) found.push(`OAuth client ${c.clientId} with the demo secret ${clientSecrets.get(c.secretHash)}`);

  const users = await em.find(
    User,
    { uId: { $in: Object.values(DEMO_USERS) }, passwordHash: { $ne: null } },
    { fields: ['uId', 'email', 'passwordHash'], orderBy: { uId: 'asc' } },
  );
  const verified = new Map<string, Promise<boolean>>();
  for (const u of users) {
    const hash = u.passwordHash!;
    if (!verified.has(hash)) verified.set(hash, verifyPassword(hash, DEMO_PASSWORD));
    if (await verified.get(hash)) found.push(`user ${u.uId} (${u.email}) with the demo password`);
  }

  const tokens = await em.find(SystemToken, { tokenHash: hashToken(DEMO_INGESTION_TOKEN) });
  for (const t of tokens) found.push(`system token "${t.name}" (the demo ingestion token)`);

  const keys = new Map([
    [hashToken(DEMO_COMPANY_API_KEY.toLowerCase()), DEMO_COMPANY_API_KEY],
    [hashToken(DEMO_INACTIVE_COMPANY_API_KEY.toLowerCase()), DEMO_INACTIVE_COMPANY_API_KEY],
  ]);
  const companyKeys = await em.find(CompanyApiKey, { keyHash: { $in: [...keys.keys()] } }, { orderBy: { id: 'asc' } });
  for (const k of companyKeys) found.push(`company API key ${keys.get(k.keyHash)} of company ${k.company.companyId}`);

  return found;
}
