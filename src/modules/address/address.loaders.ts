import DataLoader from 'dataloader';
import type { EntityManager, EntityName } from '@mikro-orm/core';
import { UserAddress, type AddressColumns } from './address.entity';
import { leanQuery } from '../../db/lean';

/**
 * Addresses of any number of owners (users, contact records), oldest first, in one statement:
 * a hot read (src/db/lean.ts). `owner` is the relation to the owner.
 */
export function addressesOf<T extends AddressColumns>(entity: EntityName<T>, owner: keyof T & string) {
  return leanQuery<T, [number[]]>(
    entity,
    (n) => `select * from ${n.table} where ${n.column(owner)} in (?) order by ${n.column('createdAt')}, ${n.column('uuid')}`,
  );
}

const addressesOfUsers = addressesOf(UserAddress, 'user');

export function createAddressLoaders(em: EntityManager) {
  return {
    /** Addresses of users, by user id, oldest first: one statement for any number of users. */
    userAddresses: new DataLoader<number, UserAddress[]>(async (userIds) => {
      const rows = await addressesOfUsers(em, [...userIds]);
      const byUser = new Map<number, UserAddress[]>(userIds.map((id) => [id, []]));
      for (const row of rows) byUser.get(row.user.uId)!.push(row);
      return userIds.map((id) => byUser.get(id)!);
    }),
  };
}
