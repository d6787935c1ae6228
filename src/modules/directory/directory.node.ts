// DirectoryContact as a Node, keyed by contactId, and the Address records of contact records.
// node(id:) answers a contact exactly as SmartDirectory.contacts shows it to the caller: a
// consented record of a directory the caller can open (the chain of Query.smartDirectory), passed
// through the same visibleContacts, so the directory type hides the same contacts and fields.
// A contact record's address is answered where DirectoryContact.addresses would list it: its
// contact is shown to the caller with its addresses. That covers Query.directoryContactAddresses
// too (the caller's own record, in a directory with an address field), whose rule is narrower.
// The address module declares Address and answers profile addresses; the addresses of contact
// records are this module's, so it adds their loader (ModuleDefinition.nodeLoaders).
import type { EntityManager } from '@mikro-orm/core';
import type { Context } from '../../context';
import { NODE_KEY, nodeIntKey, type NodeType } from '../../graphql/node';
import { shownFields, visibleContacts } from './contact-visibility';
import { ContactRecord } from './directory.entity';
import { contactAddressesByUuid } from './directory.queries';
import { keepConsented } from './directory.loaders';
import type { DirectoryContact } from './directory.types';

/**
 * The contacts of these ids as SmartDirectory.contacts shows them to the caller, in id order,
 * null for those it does not list for them. Constant statements: the records, then at once the
 * caller's standing in their directories, the directories, their fields and the consents.
 */
async function contactsShownTo(ctx: Context, contactIds: readonly number[]): Promise<(DirectoryContact | null)[]> {
  const { user } = await ctx.auth.requireUser();
  const em: EntityManager = ctx.em;
  const records = contactIds.length ? await em.find(ContactRecord, { contactId: { $in: [...new Set(contactIds)] } }) : [];
  if (!records.length) return contactIds.map(() => null);
  const uuids = [...new Set(records.map((r) => r.directory.directoryUUID))];
  const [standings, directories, fields, consented] = await Promise.all([
    ctx.loaders.directoryStanding(user.uId).loadMany(uuids),
    ctx.loaders.directoryByUuid.loadMany(uuids),
    ctx.loaders.directoryFields.loadMany(uuids),
    keepConsented(em, records),
  ]);
  const shown = new Map<number, DirectoryContact>();
  for (const record of consented) {
    const at = uuids.indexOf(record.directory.directoryUUID);
    const [standing, directory, fieldList] = [standings[at], directories[at], fields[at]];
    // A directory the caller cannot open (the chain's refusal) shows them nothing.
    if (standing instanceof Error || directory instanceof Error || !directory || fieldList instanceof Error) continue;
    const [contact] = visibleContacts(directory, shownFields(fieldList), [record], { userId: user.uId, admin: standing.admin });
    if (contact) shown.set(record.contactId, contact);
  }
  return contactIds.map((id) => shown.get(id) ?? null);
}

export const directoryContactNode: NodeType = {
  key: (contact: DirectoryContact) => String(contact.contactId),
  async load(keys, ctx) {
    const ids = keys.map(nodeIntKey);
    const contacts = await contactsShownTo(
      ctx,
      ids.filter((id): id is number => id !== null),
    );
    const byId = new Map(contacts.flatMap((c) => (c ? [[c.contactId, c] as const] : [])));
    return ids.map((id) => (id === null ? null : (byId.get(id) ?? null)));
  },
};

/** Address's loader for the addresses of contact records: those whose contact the caller is shown with its addresses. */
export const loadContactAddresses: NodeType['load'] = async (keys, ctx) => {
  const uuids = keys.filter((key) => NODE_KEY.uuid.test(key));
  const rows = uuids.length ? await contactAddressesByUuid.run(ctx.em, { uuids }) : [];
  const contacts = await contactsShownTo(
    ctx,
    rows.map((row) => row.contactRecord),
  );
  const byUuid = new Map(rows.flatMap((row, i) => (contacts[i]?.addressesVisible ? [[row.uuid, row] as const] : [])));
  return keys.map((key) => byUuid.get(key) ?? null);
};
