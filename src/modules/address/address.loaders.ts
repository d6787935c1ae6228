import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { UserAddress } from './address.entity';

export function createAddressLoaders(em: EntityManager) {
  return {
    /** Addresses of users, by user id, oldest first: one statement for any number of users. */
    userAddresses: new DataLoader<number, UserAddress[]>(async (userIds) => {
      const rows = await em.find(UserAddress, { user: { $in: [...userIds] } }, { orderBy: { createdAt: 'asc', uuid: 'asc' } });
      const byUser = new Map<number, UserAddress[]>(userIds.map((id) => [id, []]));
      for (const row of rows) byUser.get(row.user.uId)!.push(row);
      return userIds.map((id) => byUser.get(id)!);
    }),
  };
}
