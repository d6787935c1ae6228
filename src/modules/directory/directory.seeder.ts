// Demo tenant: two directories of Northwind Health (1001) with Sync Up on and addresses
// shown, linked to a team Olivia and Cara belong to; Olivia has a consented contact record in
// each holding a copy of her work address linked to it.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { Company } from '../company';
import { Team, TeamMember } from '../team';
import { User } from '../user';
import { ADDRESS_FIELDS, UserAddress } from '../address';
import { ConsentDefinition, UserConsent } from './consent.entity';
import { ContactAddress, ContactRecord, type SmartDirectory } from './directory.entity';
import { createSmartDirectory } from './directory.service';
import {
  DEMO_COMPANIES,
  DEMO_USERS,
  DEMO_ADDRESSES,
  DEMO_DIRECTORY_TEAM,
  DEMO_DIRECTORIES,
  DEMO_DIRECTORY_CONSENTS,
  DEMO_CONTACT_ADDRESSES,
} from '../../db/demo';

export class DirectorySeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const team = em.create(Team, {
      teamId: DEMO_DIRECTORY_TEAM,
      company: em.getReference(Company, DEMO_COMPANIES.northwind),
      teamName: 'Northwind directory members',
    });
    em.create(TeamMember, { team, user: em.getReference(User, DEMO_USERS.olivia) });
    em.create(TeamMember, { team, user: em.getReference(User, DEMO_USERS.cara), isTeamAdmin: true });
    await em.flush();

    const share = (consentUUID: string) => ({
      consentUUID,
      consentType: 'DS',
      name: 'Share my contact details',
      required: true,
      desc: 'My names, contact details and addresses in this directory are shown to the other members of the team.',
    });
    const staff = await createSmartDirectory(em, {
      directoryUUID: DEMO_DIRECTORIES.staff,
      companyId: DEMO_COMPANIES.northwind,
      teamId: DEMO_DIRECTORY_TEAM,
      name: 'Northwind staff directory',
      type: 'UNRESTRICTED',
      order: 'FL',
      fieldIds: [3, 4, 6, 7, 9],
      syncUp: true,
      autoPopulateFromProfile: true,
      consents: [share(DEMO_DIRECTORY_CONSENTS.staff)],
    });
    const cardiology = await createSmartDirectory(em, {
      directoryUUID: DEMO_DIRECTORIES.cardiology,
      companyId: DEMO_COMPANIES.northwind,
      teamId: DEMO_DIRECTORY_TEAM,
      name: 'Northwind cardiology network',
      type: 'PARTIALLY_RESTRICTED',
      order: 'LF',
      fieldIds: [3, 5, 6, 9],
      syncUp: true,
      consents: [
        share(DEMO_DIRECTORY_CONSENTS.cardiology),
        {
          consentType: 'DS',
          name: 'Research contact',
          desc: 'Researchers of the network may contact me.',
          optionalDesc: 'You can still use the directory without this.',
          required: false,
        },
      ],
    });

    const olivia = await em.findOneOrFail(User, { uId: DEMO_USERS.olivia });
    const work = await em.findOneOrFail(UserAddress, { uuid: DEMO_ADDRESSES.oliviaWork });
    const add = async (directory: SmartDirectory, consentUUID: string, addressUuid: string) => {
      const record = em.create(ContactRecord, {
        directory,
        user: olivia,
        firstName: olivia.firstName,
        lastName: olivia.lastName,
        email: olivia.email,
        mobile: olivia.primaryMobile,
      });
      em.create(UserConsent, { user: olivia, consent: await em.findOneOrFail(ConsentDefinition, { consentUUID }), given: true });
      const fields = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, work[f] ?? null]));
      em.create(ContactAddress, { ...fields, uuid: addressUuid, contactRecord: record, userAddress: work } as ContactAddress);
    };
    await add(staff, DEMO_DIRECTORY_CONSENTS.staff, DEMO_CONTACT_ADDRESSES.staff);
    await add(cardiology, DEMO_DIRECTORY_CONSENTS.cardiology, DEMO_CONTACT_ADDRESSES.cardiology);
  }
}
