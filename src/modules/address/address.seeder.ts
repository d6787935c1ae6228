// Demo tenant: Olivia's work and personal addresses, with the uuids of docs/api/user-profile.md ("Demo").
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { User } from '../user';
import { UserAddress } from './address.entity';
import { DEMO_USERS, DEMO_ADDRESSES } from '../../db/demo';

export class AddressSeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const olivia = em.getReference(User, DEMO_USERS.olivia);
    em.create(UserAddress, {
      uuid: DEMO_ADDRESSES.oliviaWork,
      user: olivia,
      typeCode: 'W',
      name: 'Northwind Health, Cardiology',
      street: '12 Harbour Street',
      city: 'Sydney',
      suburb: 'Haymarket',
      stateCode: 'NSW',
      postcode: '2000',
      countryCode: 'AU',
      email: 'olivia.nguyen@northwind.example',
      phone: '+61 2 9000 2001',
      department: 'Cardiology',
      division: 'Clinical Services',
      jobTitle: 'Cardiologist',
      createdAt: new Date('2026-01-05T09:00:00Z'),
    });
    em.create(UserAddress, {
      uuid: DEMO_ADDRESSES.oliviaPersonal,
      user: olivia,
      typeCode: 'P',
      name: 'Home',
      street: '7 Fig Tree Lane',
      city: 'Sydney',
      suburb: 'Glebe',
      stateCode: 'NSW',
      postcode: '2037',
      countryCode: 'AU',
      mobile: '+61 400 000 201',
      createdAt: new Date('2026-01-05T09:01:00Z'),
    });
  }
}
