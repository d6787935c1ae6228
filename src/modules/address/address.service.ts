// The caller's own addresses. Every lookup is by uuid AND owner, so another user's uuid is
// simply not found (WSAddressNotFoundException), never read or changed.
import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { ServiceError } from '../../core/errors';
import { User } from '../user';
import { UserAddress } from './address.entity';
import type { AddressInput } from './address.inputs';
import { assertStateInCountry, parseAddressUuid, toAddressPatch } from './address.patch';

/** A user keeps at most this many addresses (work, personal and others). */
export const MAX_USER_ADDRESSES = 50;

const notFound = () => new ServiceError('WSAddressNotFoundException', 'No address of the caller has this uuid.', { field: 'addressUUID' });

export async function findOwnAddress(em: EntityManager, userId: number, uuid: string): Promise<UserAddress> {
  const address = await em.findOne(UserAddress, { uuid, user: userId });
  if (!address) throw notFound();
  return address;
}

export async function createUserAddress(em: EntityManager, userId: number, input: AddressInput): Promise<UserAddress> {
  const patch = toAddressPatch(input, 'create');
  if ((await em.count(UserAddress, { user: userId })) >= MAX_USER_ADDRESSES) {
    throw new ServiceError('WSLimitExceededException', `A user can keep at most ${MAX_USER_ADDRESSES} addresses.`);
  }
  const address = em.create(UserAddress, { ...patch, uuid: crypto.randomUUID(), user: em.getReference(User, userId) } as UserAddress);
  await em.flush();
  return address;
}

export async function updateUserAddress(em: EntityManager, userId: number, addressUUID: string, input: AddressInput): Promise<UserAddress> {
  const uuid = parseAddressUuid(addressUUID, 'addressUUID');
  const patch = toAddressPatch(input, 'update', uuid);
  const address = await findOwnAddress(em, userId, uuid);
  em.assign(address, patch as Partial<UserAddress>);
  assertStateInCountry(address);
  await em.flush();
  return address;
}

export async function deleteUserAddress(em: EntityManager, userId: number, addressUUID: string): Promise<void> {
  const address = await findOwnAddress(em, userId, parseAddressUuid(addressUUID, 'addressUUID'));
  // Directory copies stay in their contact records, unlinked (the foreign key sets null).
  await em.remove(address).flush();
}
