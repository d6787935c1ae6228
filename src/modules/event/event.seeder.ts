// Demo tenant: 25 events on the wall of company 1001, Olivia invited to each (her listing has
// pages of 20 and 5). The first one carries the event consents the consent module seeds.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { Company } from '../company';
import { User } from '../user';
import { localToUtc } from '../../core/zoned-time';
import { Event, EventAttendee } from './event.entity';
import { DEMO_COMPANIES, DEMO_USERS, demoEventUuid, demoInviteUuid, DEMO_EVENT_COUNT, DEMO_EVENT_ID_BASE } from '../../db/demo';

const TOPICS = ['Cardiology grand round', 'Clinical skills workshop', 'Research evening', 'Nursing forum', 'Telehealth masterclass'];
const VENUES = [
  {
    address: 'Northwind Health Auditorium',
    street: '1 Harbour Street',
    suburb: 'Haymarket',
    city: 'Sydney',
    postCode: '2000',
    latitude: -33.878,
    longitude: 151.2037,
  },
  {
    address: 'Parramatta Learning Centre',
    street: '12 Church Street',
    suburb: 'Parramatta',
    city: 'Sydney',
    postCode: '2150',
    latitude: -33.8151,
    longitude: 151.0034,
  },
];

export class EventSeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const company = em.getReference(Company, DEMO_COMPANIES.northwind);
    const olivia = em.getReference(User, DEMO_USERS.olivia);
    for (let n = 1; n <= DEMO_EVENT_COUNT; n++) {
      // Three events in the past (ended), then one a fortnight from January 2027: the series
      // crosses the April 2027 end of daylight saving, so the offsets show 660 and then 600.
      const day = n <= 3 ? new Date(Date.UTC(2025, 2 + n, 10)) : new Date(Date.UTC(2027, 0, 7 + (n - 4) * 14));
      const date = day.toISOString().slice(0, 10);
      const venue = VENUES[n % VENUES.length];
      const event = em.create(Event, {
        eId: DEMO_EVENT_ID_BASE + n,
        eventUUID: demoEventUuid(n),
        company,
        name: `${TOPICS[n % TOPICS.length]} #${n}`,
        description: `Session ${n} of the Northwind Health education series.`,
        ...venue,
        country: 'Australia',
        status: 'A',
        imageUrl: `https://northwindhealth.example/events/${n}.png`,
        flyerPdfUrl: `https://northwindhealth.example/events/${n}.pdf`,
        timezoneId: 'Australia/Sydney',
        utcStart: localToUtc(`${date}T18:00:00`, 'Australia/Sydney'),
        utcEnd: localToUtc(`${date}T20:00:00`, 'Australia/Sydney'),
        useExternalEventProvider: n % 10 === 0,
      });
      em.create(EventAttendee, {
        attendeeId: DEMO_EVENT_ID_BASE + n,
        inviteUUID: demoInviteUuid(n),
        event,
        user: olivia,
        inviteStatus: 'P',
        attendingStatus: n % 4 === 0 ? 'M' : 'U',
        invitesSent: 1,
        remindersSent: n <= 3 ? 1 : 0,
      });
    }
  }
}
