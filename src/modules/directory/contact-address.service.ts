// Addresses of the caller's contact record in a directory (spec endpoints 7, 9 and 10).
// Request-shape checks run first, then the directory chain, then the address rules.
import crypto from 'node:crypto';
import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { ServiceError, invalidParameter } from '../../core/errors';
import { ADDRESS_FIELDS, UserAddress, type AddressField, type AddressTypeCode } from '../address';
import type { AddressColumns, AddressInput } from '../address';
import { assertStateInCountry, parseAddressUuid, toAddressPatch, type AddressPatch } from '../address';
import { ContactAddress, ContactRecord } from './directory.entity';
import { checkDirectoryContact, requireDirectoryContact } from './directory.access';
import { addressesOfContacts } from './directory.queries';

/** At most this many user addresses are copied by one request. */
export const MAX_COPY = 10;

const alreadyExists = (uuid: string) =>
  new ServiceError('WSAlreadyExistsException', `The user address ${uuid} has already been copied to this contact record.`, {
    field: 'addressUUIDs',
  });
const alreadyFull = (typeCode: string) =>
  new ServiceError('WSAddressAlreadyFullException', `The contact record already holds an address of type ${typeCode}.`, {
    field: 'typeCode',
  });

export async function listContactAddresses(em: EntityManager, userId: number, directoryUUID: string): Promise<AddressColumns[]> {
  const uuid = parseAddressUuid(directoryUUID, 'directoryUUID');
  const { contactId } = await checkDirectoryContact(em, userId, uuid, { addresses: true });
  return addressesOfContacts.run(em, { contactIds: [contactId] });
}

/** Request shape of a copy: a non-empty array of distinct uuids, at most MAX_COPY of them. */
export function parseAddressUUIDs(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0)
    throw invalidParameter('addressUUIDs', 'addressUUIDs must be a non-empty array of address uuids.');
  const uuids = value.map((v) => parseAddressUuid(v, 'addressUUIDs'));
  if (new Set(uuids).size !== uuids.length) throw invalidParameter('addressUUIDs', 'addressUUIDs holds the same uuid twice.');
  if (uuids.length > MAX_COPY) {
    throw new ServiceError('WSLimitExceededException', `At most ${MAX_COPY} addresses can be copied at once.`, { field: 'addressUUIDs' });
  }
  return uuids;
}

/** Copies the caller's addresses into their contact record: all of them, or none. */
export async function copyAddressesFromUser(
  em: EntityManager,
  userId: number,
  directoryUUID: string,
  addressUUIDs: unknown,
): Promise<ContactAddress[]> {
  const uuid = parseAddressUuid(directoryUUID, 'directoryUUID');
  const sourceUuids = parseAddressUUIDs(addressUUIDs);
  const { contact } = await requireDirectoryContact(em, userId, uuid, { addresses: true });
  try {
    return await em.transactional(
      async (tx) => {
        // Copies into one record queue behind this lock, so each sees what the previous one stored.
        const record = await tx.findOne(ContactRecord, { contactId: contact.contactId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!record) throw new ServiceError('WSUserContactNotFoundException');
        const sources = await tx.find(UserAddress, { uuid: { $in: sourceUuids }, user: userId });
        const byUuid = new Map(sources.map((s) => [s.uuid, s]));
        const missing = sourceUuids.find((u) => !byUuid.has(u));
        if (missing)
          throw new ServiceError('WSAddressNotFoundException', `No address of the caller has the uuid ${missing}.`, {
            field: 'addressUUIDs',
          });

        const held = await tx.find(ContactAddress, { contactRecord: record });
        const copied = new Set(held.map((a) => a.userAddress?.uuid));
        const again = sourceUuids.find((u) => copied.has(u));
        if (again) throw alreadyExists(again);
        const types = new Set<string>(held.map((a) => a.typeCode));
        const copies: ContactAddress[] = [];
        for (const sourceUuid of sourceUuids) {
          const source = byUuid.get(sourceUuid)!;
          if (types.has(source.typeCode)) throw alreadyFull(source.typeCode);
          types.add(source.typeCode);
          const fields = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, source[f] ?? null]));
          copies.push(
            tx.create(ContactAddress, {
              ...fields,
              uuid: crypto.randomUUID(),
              contactRecord: record,
              userAddress: source,
            } as ContactAddress),
          );
        }
        await tx.flush();
        return copies;
      },
      { clear: true },
    );
  } catch (err) {
    // The lock makes this rare; the constraints decide when it happens anyway.
    if (err instanceof UniqueConstraintViolationException) {
      if (/contact_address_source_unique/.test(err.message)) throw alreadyExists(sourceUuids.join(', '));
      if (/contact_address_type_unique/.test(err.message))
        throw new ServiceError('WSAddressAlreadyFullException', 'The contact record already holds an address of this type.', {
          field: 'typeCode',
        });
    }
    throw err;
  }
}

/** The fields of the patch whose value differs from the stored address. */
function changesOf(address: ContactAddress, patch: AddressPatch): AddressPatch {
  const changes: AddressPatch = {};
  for (const [field, value] of Object.entries(patch) as [AddressField, string | null][]) {
    if ((address[field] ?? null) !== value) changes[field] = value;
  }
  return changes;
}

/**
 * Updates one address of the caller's contact record. With Sync Up on and the address linked
 * to a user address, the same changes are written, in the same transaction, to that user
 * address and to every other copy of it in a directory that also has Sync Up on.
 */
export async function updateContactAddress(
  em: EntityManager,
  userId: number,
  directoryUUID: string,
  addressUUID: string,
  input: AddressInput,
): Promise<ContactAddress> {
  const uuid = parseAddressUuid(directoryUUID, 'directoryUUID');
  const addressUuid = parseAddressUuid(addressUUID, 'addressUUID');
  const patch = toAddressPatch(input, 'update', addressUuid);
  const { directory, contact } = await requireDirectoryContact(em, userId, uuid, { addresses: true });
  try {
    return await em.transactional(
      async (tx) => {
        const notFound = () =>
          new ServiceError('WSContactNotFoundException', 'No address of your contact record in this directory has this uuid.', {
            field: 'addressUUID',
          });
        const peek = await tx.findOne(ContactAddress, { uuid: addressUuid, contactRecord: contact.contactId });
        if (!peek) throw notFound();
        // Every writer of a linked family locks the user address first: no lock cycles between copies.
        const sourceUuid = directory.syncUp ? peek.userAddress?.uuid : undefined;
        const source = sourceUuid
          ? await tx.findOne(UserAddress, { uuid: sourceUuid, user: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
          : null;
        const address = await tx.findOne(
          ContactAddress,
          { uuid: addressUuid, contactRecord: contact.contactId },
          { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
        );
        if (!address) throw notFound();

        const changes = changesOf(address, patch);
        if (
          changes.typeCode &&
          (await tx.count(ContactAddress, {
            contactRecord: contact.contactId,
            typeCode: changes.typeCode as AddressTypeCode,
            uuid: { $ne: addressUuid },
          }))
        ) {
          throw alreadyFull(changes.typeCode);
        }
        tx.assign(address, changes as Partial<ContactAddress>);
        assertStateInCountry(address);

        if (source && address.userAddress?.uuid === source.uuid && Object.keys(changes).length) {
          tx.assign(source, changes as Partial<UserAddress>);
          assertStateInCountry(source);
          const linked = await tx.find(ContactAddress, {
            userAddress: source.uuid,
            uuid: { $ne: addressUuid },
            contactRecord: { directory: { syncUp: true } },
          });
          // Locked by primary key: FOR UPDATE over the joins above would also lock the directories.
          const copies = linked.length
            ? await tx.find(
                ContactAddress,
                { uuid: { $in: linked.map((c) => c.uuid) } },
                { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, orderBy: { uuid: 'asc' } },
              )
            : [];
          for (const copy of copies) {
            tx.assign(copy, changes as Partial<ContactAddress>);
            assertStateInCountry(copy);
          }
        }
        await tx.flush();
        return address;
      },
      { clear: true },
    );
  } catch (err) {
    // A Sync Up copy whose record already holds the new typeCode: nothing is written.
    if (err instanceof UniqueConstraintViolationException && /contact_address_type_unique/.test(err.message)) {
      throw new ServiceError('WSAddressAlreadyFullException', 'A linked contact record already holds an address of this type.', {
        field: 'typeCode',
      });
    }
    throw err;
  }
}
