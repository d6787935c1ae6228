// Demo tenant core: the five users, the seven companies, roles, company API keys and the
// ingestion system token of docs/getting-started.md ("The demo tenant"). Other modules seed their parts on top of these ids.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { User } from '../user';
import { Company, CompanyApiKey, CompanyRole } from './company.entity';
import { SystemToken } from '../identity';
import { hashPassword, hashToken } from '../identity';
import {
  DEMO_PROFESSION,
  DEMO_SPECIALTY,
  DEMO_PASSWORD,
  DEMO_USERS,
  DEMO_COMPANIES,
  DEMO_COMPANY_API_KEY,
  DEMO_INACTIVE_COMPANY_API_KEY,
  DEMO_INGESTION_TOKEN,
} from '../../db/demo';

export class CoreSeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const users = [
      {
        uId: DEMO_USERS.olivia,
        email: 'olivia@demo.example',
        authType: 'O' as const,
        passwordHash,
        synchronised: true,
        firstName: 'Olivia',
        lastName: 'Nguyen',
        countryCode: 'AU',
        professionId: DEMO_PROFESSION.doctor,
        specialtyId: DEMO_SPECIALTY.cardiology,
        timezoneId: 'Australia/Sydney',
      },
      {
        uId: DEMO_USERS.ian,
        email: 'ian@demo.example',
        authType: 'I' as const,
        passwordHash: null,
        synchronised: true,
        firstName: 'Ian',
        lastName: 'Brooks',
        countryCode: 'AU',
      },
      {
        uId: DEMO_USERS.cara,
        email: 'cara@demo.example',
        authType: 'O' as const,
        passwordHash,
        synchronised: true,
        firstName: 'Cara',
        lastName: 'Lopez',
        countryCode: 'AU',
      },
      {
        uId: DEMO_USERS.omar,
        email: 'omar@demo.example',
        authType: 'O' as const,
        passwordHash,
        synchronised: false,
        firstName: 'Omar',
        lastName: 'Haddad',
        countryCode: 'NZ',
      },
      {
        uId: DEMO_USERS.pat,
        email: 'pat@demo.example',
        authType: 'O' as const,
        passwordHash,
        synchronised: true,
        firstName: 'Pat',
        lastName: 'Kim',
        countryCode: 'AU',
      },
    ];
    for (const u of users) em.create(User, u);

    const companies = [
      {
        companyId: DEMO_COMPANIES.northwind,
        companyName: 'Northwind Health',
        companyAddress: '1 Harbour Street',
        companyCity: 'Sydney',
        companyPostcode: '2000',
        companyStateCode: 'NSW',
        companyCountryCode: 'AU',
        smartDirectoryEnabled: true,
      },
      {
        companyId: DEMO_COMPANIES.southgate,
        companyName: 'Southgate Clinics',
        companyAddress: '200 Collins Street',
        companyCity: 'Melbourne',
        companyPostcode: '3000',
        companyStateCode: 'VIC',
        companyCountryCode: 'AU',
        usesCaf: true,
        cafUrl: 'https://southgateclinics.example/caf',
      },
      {
        companyId: DEMO_COMPANIES.eastwood,
        companyName: 'Eastwood Care',
        companyAddress: '12 Queen Street',
        companyCity: 'Brisbane',
        companyPostcode: '4000',
        companyStateCode: 'QLD',
        companyCountryCode: 'AU',
      },
      {
        companyId: DEMO_COMPANIES.westfield,
        companyName: 'Westfield Labs',
        companyAddress: '5 Queen Street',
        companyCity: 'Auckland',
        companyPostcode: '1010',
        companyCountryCode: 'NZ',
      },
      {
        companyId: DEMO_COMPANIES.hidden,
        companyName: 'Hidden Harbour',
        companyCity: 'Hobart',
        companyStateCode: 'TAS',
        companyCountryCode: 'AU',
        hiddenWall: true,
      },
      {
        companyId: DEMO_COMPANIES.closed,
        companyName: 'Closed Co',
        companyCity: 'Perth',
        companyStateCode: 'WA',
        companyCountryCode: 'AU',
        active: false,
      },
      {
        companyId: DEMO_COMPANIES.pending,
        companyName: 'Pending Partners',
        companyAddress: '50 King William Street',
        companyCity: 'Adelaide',
        companyPostcode: '5000',
        companyStateCode: 'SA',
        companyCountryCode: 'AU',
      },
    ];
    for (const c of companies) {
      em.create(Company, {
        ...c,
        companyDesc: `${c.companyName}: a demo company wall.`,
        companyContactName: 'Demo Contact',
        companyContactEmail: `contact@${c.companyName.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
        companyWebsite: `https://${c.companyName.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
        bannerKey: `companies/${c.companyId}/banner-criteria.png`,
        logoKey: `companies/${c.companyId}/logo.png`,
      });
    }
    const northwind = em.getReference(Company, DEMO_COMPANIES.northwind);
    const cara = em.getReference(User, DEMO_USERS.cara);
    em.create(CompanyRole, { company: northwind, user: cara, role: 'ADMIN' });
    em.create(CompanyRole, { company: northwind, user: cara, role: 'PUSH_NOTIFICATION' });
    em.create(CompanyApiKey, { keyHash: hashToken(DEMO_COMPANY_API_KEY), company: northwind, active: true });
    em.create(CompanyApiKey, { keyHash: hashToken(DEMO_INACTIVE_COMPANY_API_KEY), company: northwind, active: false });
    em.create(SystemToken, { tokenHash: hashToken(DEMO_INGESTION_TOKEN), name: 'Demo ingestion process', scopes: ['ingestion'] });
  }
}
