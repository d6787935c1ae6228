// Demo discovery data of docs/api/discovery.md ("Demo"): identifier definitions, each company's criteria and
// Olivia's and Cara's connections, so that Olivia (AU, doctor, cardiology, no identifiers)
// is recommended 1007 Pending Partners (pending, full), 1002 Southgate Clinics (full), then
// 1003 Eastwood Care (partial: it asks for an AHPRA number she has not given). Also links
// company 1001's API keys to its membership identifier.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { Company, CompanyApiKey } from '../company';
import { CompanyConnection } from '../connection';
import { User } from '../user';
import { DiscoveryCriterion } from './criterion.entity';
import { IdentifierDefinition } from './identifier.entity';
import { DEMO_COMPANIES, DEMO_USERS, DEMO_PROFESSION, DEMO_SPECIALTY, DEMO_IDENTIFIERS } from '../../db/demo';

export class DiscoverySeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    em.create(IdentifierDefinition, {
      identifierId: DEMO_IDENTIFIERS.ahpra,
      name: 'AHPRA',
      description: 'Australian Health Practitioner Regulation Agency registration number',
      formatDesc: 'MED0001234567',
      formatRegex: '^[A-Z]{3}[0-9]{10}$',
      countryCode: 'AU',
    });
    em.create(IdentifierDefinition, {
      identifierId: DEMO_IDENTIFIERS.mcnz,
      name: 'MCNZ',
      description: 'Medical Council of New Zealand registration number',
      formatDesc: '12345',
      formatRegex: '^[0-9]{5,6}$',
      countryCode: 'NZ',
    });
    em.create(IdentifierDefinition, {
      identifierId: DEMO_IDENTIFIERS.northwindMember,
      name: 'NWH member',
      description: 'Northwind Health membership number',
      formatDesc: 'NWH-000123',
      formatRegex: '^NWH-[0-9]{6}$',
      countryCode: 'AU',
    });

    const { doctor, nurse } = DEMO_PROFESSION;
    const { cardiology, oncology } = DEMO_SPECIALTY;
    const criteria: [number, number, Partial<Pick<DiscoveryCriterion, 'countries' | 'professions' | 'specialties' | 'identifiers'>>][] = [
      [601, DEMO_COMPANIES.northwind, { countries: ['AU'] }],
      [602, DEMO_COMPANIES.southgate, { countries: ['AU'], professions: [doctor], specialties: [cardiology, oncology] }],
      [603, DEMO_COMPANIES.southgate, { countries: ['AU'], professions: [nurse] }],
      [604, DEMO_COMPANIES.eastwood, { countries: ['AU'], professions: [doctor], identifiers: [DEMO_IDENTIFIERS.ahpra] }],
      [605, DEMO_COMPANIES.westfield, { countries: ['NZ'], identifiers: [DEMO_IDENTIFIERS.mcnz] }],
      [606, DEMO_COMPANIES.hidden, { countries: ['AU'] }],
      [607, DEMO_COMPANIES.closed, { countries: ['AU'] }],
      [608, DEMO_COMPANIES.pending, { countries: ['AU'], professions: [doctor, nurse] }],
    ];
    for (const [criterionId, companyId, dims] of criteria) {
      em.create(DiscoveryCriterion, { criterionId, company: em.getReference(Company, companyId), ...dims });
    }

    const at = (iso: string) => new Date(iso);
    const connect = (userId: number, companyId: number, data: Partial<CompanyConnection>) =>
      em.create(CompanyConnection, {
        user: em.getReference(User, userId),
        company: em.getReference(Company, companyId),
        ...data,
      } as CompanyConnection);
    connect(DEMO_USERS.olivia, DEMO_COMPANIES.northwind, {
      status: 'accepted',
      requestedAt: at('2026-01-05T09:00:00Z'),
      pendingAt: at('2026-01-05T09:00:00Z'),
      acceptedAt: at('2026-01-06T10:00:00Z'),
    });
    // Cara administers Northwind's wall and is a member of it.
    connect(DEMO_USERS.cara, DEMO_COMPANIES.northwind, {
      status: 'accepted',
      requestedAt: at('2026-01-02T09:00:00Z'),
      acceptedAt: at('2026-01-02T09:00:00Z'),
    });
    connect(DEMO_USERS.olivia, DEMO_COMPANIES.pending, {
      status: 'pending',
      requestedAt: at('2026-02-01T08:30:00Z'),
      pendingAt: at('2026-02-01T08:30:00Z'),
    });

    const keys = await em.find(CompanyApiKey, { company: DEMO_COMPANIES.northwind });
    for (const key of keys) key.membershipIdentifierId = DEMO_IDENTIFIERS.northwindMember;
  }
}
