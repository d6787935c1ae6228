// The user an e-mail address names, as the password grant, inbound federation and the login
// scheme look it up (case-insensitively; an address longer than the column names no one).
import { sql, type EntityManager } from '@mikro-orm/core';
import { User } from '../user';
import { charLength } from '../../core/text';

export async function findUserByEmail(em: EntityManager, email: string): Promise<User | null> {
  if (charLength(email) > 255) return null;
  return em.findOne(User, { [sql.lower('email')]: email.toLowerCase() });
}
