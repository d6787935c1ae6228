// Demo tenant: consents of company 1001 and of its first event (the events module seeds the
// event itself under the same uuid); Olivia has given the company's required consent.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { Company } from '../company';
import { User } from '../user';
import { ConsentDefinition, UserConsent } from '../directory';
import { DEMO_COMPANIES, DEMO_USERS, DEMO_EVENT_UUID, DEMO_CONSENTS } from '../../db/demo';

export class ConsentSeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const northwind = em.getReference(Company, DEMO_COMPANIES.northwind);
    const profile = em.create(ConsentDefinition, {
      consentUUID: DEMO_CONSENTS.northwindProfile,
      consentTypeCode: 'C',
      company: northwind,
      consentRequired: true,
      sortOrder: 1,
      consentValue:
        'I agree that Northwind Health may see my profile (name, profession, specialty and country) while I am connected to its wall.',
    });
    em.create(ConsentDefinition, {
      consentUUID: DEMO_CONSENTS.northwindNews,
      consentTypeCode: 'C',
      company: northwind,
      consentRequired: false,
      sortOrder: 2,
      consentValue: 'Northwind Health may send me its newsletter by e-mail.',
    });
    em.create(ConsentDefinition, {
      consentUUID: DEMO_CONSENTS.eventAttendance,
      consentTypeCode: 'C',
      eventUUID: DEMO_EVENT_UUID,
      consentRequired: true,
      sortOrder: 1,
      consentValue: 'My name may be shared with the organiser and the other attendees of the event.',
    });
    em.create(ConsentDefinition, {
      consentUUID: DEMO_CONSENTS.eventPhotos,
      consentTypeCode: 'C',
      eventUUID: DEMO_EVENT_UUID,
      consentRequired: false,
      sortOrder: 2,
      consentValue: 'Photos taken at the event may show me.',
    });
    em.create(UserConsent, { user: em.getReference(User, DEMO_USERS.olivia), consent: profile, given: true });
  }
}
