import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import type { AddressColumns } from './address.entity';
import { addressesOfUsers } from './address.queries';

export function createAddressLoaders(em: EntityManager) {
  return {
    /** Addresses of users, by user id, oldest first: one statement for any number of users. */
    userAddresses: new DataLoader<number, AddressColumns[]>(async (userIds) => {
      const rows = await addressesOfUsers.run(em, { userIds: [...userIds] });
      const byUser = new Map<number, AddressColumns[]>(userIds.map((id) => [id, []]));
      for (const row of rows) byUser.get(row.user)!.push(row);
      return userIds.map((id) => byUser.get(id)!);
    }),
  };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createAddressLoaders> {}
}
