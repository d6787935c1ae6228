// Address rows for tests, written straight to the database.
import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { UserAddress } from '../../src/modules/address/address.entity';
import { User } from '../../src/modules/user/user.entity';

export async function createUserAddress(orm: MikroORM, userId: number, data: Partial<UserAddress> = {}): Promise<UserAddress> {
  const em = orm.em.fork();
  const address = em.create(UserAddress, {
    uuid: crypto.randomUUID(), user: em.getReference(User, userId), typeCode: 'W', name: 'Office', street: '1 Test Street', city: 'Sydney',
    stateCode: 'NSW', postcode: '2000', countryCode: 'AU', ...data,
  } as UserAddress);
  await em.flush();
  return address;
}

export async function addressRow(orm: MikroORM, table: 'user_address' | 'contact_address', uuid: string): Promise<any> {
  const [row] = await orm.em.fork().getConnection().execute(`select * from "${table}" where uuid = ?`, [uuid]);
  return row;
}

/** Every address field with null, so an expected body lists only what is set. */
export const NULL_ADDRESS = {
  name: null, street: null, city: null, suburb: null, stateCode: null, state: null, postcode: null, countryCode: null, country: null,
  email: null, phone: null, fax: null, mobile: null, department: null, division: null, jobTitle: null,
};
