import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { UserAddress } from './address.entity';
import { leanQuery } from '../../db/lean';

/** Hot read (src/db/lean.ts): one statement for any number of users. */
const addressesOfUsers = leanQuery<UserAddress, [number[]]>(
  UserAddress,
  (n) => `select * from ${n.table} where ${n.column('user')} in (?) order by ${n.column('createdAt')}, ${n.column('uuid')}`,
);

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
