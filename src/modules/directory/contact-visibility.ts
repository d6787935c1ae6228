// Who sees which contacts of a directory (the spec names the types; their meaning is ours):
//   UNRESTRICTED          every member sees every consented contact with the fields the directory shows;
//   PARTIALLY_RESTRICTED  members see every consented contact's names only; their own record and
//                         team admins see all shown fields;
//   FULLY_RESTRICTED      members see only their own record; team admins see every contact.
// A trusted graph client (system token with the federation scope) sees what an admin sees.
import type { DirectoryContact } from './directory.types';
import type { ContactRecord, SmartDirectory } from './directory.entity';
import type { FieldDefinition } from '../reference-data';

export interface DirectoryViewer {
  /** null for a trusted graph client. */
  userId: number | null;
  admin: boolean;
}

export interface ShownFields {
  codes: ReadonlySet<string>;
  addresses: boolean;
}

/** What a directory of these fields (directoryFields) shows. */
export const shownFields = (fields: readonly FieldDefinition[]): ShownFields => ({
  codes: new Set(fields.map((f) => f.fieldCode)),
  addresses: fields.some((f) => f.isAddressField),
});

const HIDEABLE = ['email', 'mobile', 'phone', 'jobTitle', 'department', 'division', 'dateOfBirth'] as const;

const byName = new Intl.Collator('en', { sensitivity: 'base' }).compare;

export function visibleContacts(
  directory: Pick<SmartDirectory, 'directoryType' | 'directoryOrder'>,
  shown: ShownFields,
  records: ContactRecord[],
  viewer: DirectoryViewer,
): DirectoryContact[] {
  const firstLast = directory.directoryOrder === 'FL';
  const key = (r: ContactRecord) => (firstLast ? [r.firstName ?? '', r.lastName ?? ''] : [r.lastName ?? '', r.firstName ?? '']);
  const sorted = [...records].sort((a, b) => {
    const [a1, a2] = key(a);
    const [b1, b2] = key(b);
    return byName(a1, b1) || byName(a2, b2) || a.contactId - b.contactId;
  });
  const contacts: DirectoryContact[] = [];
  for (const r of sorted) {
    const own = viewer.userId !== null && viewer.userId === r.user.uId;
    const full = viewer.admin || own || directory.directoryType === 'UNRESTRICTED';
    if (!full && directory.directoryType === 'FULLY_RESTRICTED') continue;
    const [n1, n2] = key(r);
    const contact: DirectoryContact = {
      contactId: r.contactId,
      uId: r.user.uId,
      displayName: firstLast ? `${n1} ${n2}`.trim() : [n1, n2].filter(Boolean).join(', '),
      firstName: r.firstName ?? null,
      lastName: r.lastName ?? null,
      addressesVisible: full && shown.addresses,
    } as DirectoryContact;
    for (const f of HIDEABLE) contact[f] = full && shown.codes.has(f) ? (r[f] ?? null) : null;
    contacts.push(contact);
  }
  return contacts;
}
