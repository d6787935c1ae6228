import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { UserAddress, type AddressColumns } from './address.entity';
import { readModel, type TableNames } from '../../db/lean';

/** An address as read: its columns, and its owner (a user or a contact record) as the owner's id. */
export type AddressRow<Owner extends string> = Omit<AddressColumns, never> & Record<Owner, number>;

/**
 * Addresses of any number of owners (users, contact records), oldest first, in one statement of
 * plain rows (src/db/lean.ts). `owner` is the relation to the owner.
 */
export function addressesOf<Owner extends string>(entity: new () => AddressColumns, owner: Owner) {
  return readModel<AddressRow<Owner>, [number[]]>({
    entity,
    sql: (n) => {
      const a = n(entity) as TableNames<AddressRow<Owner>>;
      return `select ${a.columns()} from ${a.table} where ${a.column(owner)} = any(?::int[]) order by ${a.column('createdAt')}, ${a.column('uuid')}`;
    },
    prepared: true,
  });
}

const addressesOfUsers = addressesOf(UserAddress, 'user');

export function createAddressLoaders(em: EntityManager) {
  return {
    /** Addresses of users, by user id, oldest first: one statement for any number of users. */
    userAddresses: new DataLoader<number, AddressColumns[]>(async (userIds) => {
      const rows = await addressesOfUsers(em, [...userIds]);
      const byUser = new Map<number, AddressColumns[]>(userIds.map((id) => [id, []]));
      for (const row of rows) byUser.get(row.user)!.push(row);
      return userIds.map((id) => byUser.get(id)!);
    }),
  };
}
