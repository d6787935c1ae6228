// Demo tenant: Olivia's work and personal addresses, with the uuids of DESIGN.md.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { User } from '../user/user.entity';
import { DEMO_USERS } from '../company/core.seeder';
import { UserAddress } from './address.entity';

export const DEMO_ADDRESSES = { oliviaWork: 'a0000000-0000-4000-8000-000000002001', oliviaPersonal: 'a0000000-0000-4000-8000-000000002002' };

export class AddressSeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const olivia = em.getReference(User, DEMO_USERS.olivia);
    em.create(UserAddress, {
      uuid: DEMO_ADDRESSES.oliviaWork, user: olivia, typeCode: 'W', name: 'Northwind Health, Cardiology',
      street: '12 Harbour Street', city: 'Sydney', suburb: 'Haymarket', stateCode: 'NSW', postcode: '2000', countryCode: 'AU',
      email: 'olivia.nguyen@northwind.example', phone: '+61 2 9000 2001', department: 'Cardiology', division: 'Clinical Services', jobTitle: 'Cardiologist',
      createdAt: new Date('2026-01-05T09:00:00Z'),
    });
    em.create(UserAddress, {
      uuid: DEMO_ADDRESSES.oliviaPersonal, user: olivia, typeCode: 'P', name: 'Home',
      street: '7 Fig Tree Lane', city: 'Sydney', suburb: 'Glebe', stateCode: 'NSW', postcode: '2037', countryCode: 'AU',
      mobile: '+61 400 000 201', createdAt: new Date('2026-01-05T09:01:00Z'),
    });
  }
}
