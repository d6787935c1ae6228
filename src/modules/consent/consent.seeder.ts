// Demo tenant: consents of company 1001 and of its first event (the events module seeds the
// event itself under the same uuid); Olivia has given the company's required consent.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { Company } from '../company/company.entity';
import { User } from '../user/user.entity';
import { DEMO_COMPANIES, DEMO_USERS } from '../company/core.seeder';
import { ConsentDefinition, UserConsent } from './consent.entity';

export const DEMO_EVENT_UUID = 'e0000000-0000-4000-8000-000000000001';
export const DEMO_CONSENTS = {
  northwindProfile: 'c0000000-0000-4000-8000-000000001001',
  northwindNews: 'c0000000-0000-4000-8000-000000001002',
  eventAttendance: 'c0000000-0000-4000-8000-000000002001',
  eventPhotos: 'c0000000-0000-4000-8000-000000002002',
};

export class ConsentSeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const northwind = em.getReference(Company, DEMO_COMPANIES.northwind);
    const profile = em.create(ConsentDefinition, {
      consentUUID: DEMO_CONSENTS.northwindProfile, consentTypeCode: 'C', company: northwind, consentRequired: true, sortOrder: 1,
      consentValue: 'I agree that Northwind Health may see my profile (name, profession, specialty and country) while I am connected to its wall.',
    });
    em.create(ConsentDefinition, {
      consentUUID: DEMO_CONSENTS.northwindNews, consentTypeCode: 'C', company: northwind, consentRequired: false, sortOrder: 2,
      consentValue: 'Northwind Health may send me its newsletter by e-mail.',
    });
    em.create(ConsentDefinition, {
      consentUUID: DEMO_CONSENTS.eventAttendance, consentTypeCode: 'C', eventUUID: DEMO_EVENT_UUID, consentRequired: true, sortOrder: 1,
      consentValue: 'My name may be shared with the organiser and the other attendees of the event.',
    });
    em.create(ConsentDefinition, {
      consentUUID: DEMO_CONSENTS.eventPhotos, consentTypeCode: 'C', eventUUID: DEMO_EVENT_UUID, consentRequired: false, sortOrder: 2,
      consentValue: 'Photos taken at the event may show me.',
    });
    em.create(UserConsent, { user: em.getReference(User, DEMO_USERS.olivia), consent: profile, given: true });
  }
}
