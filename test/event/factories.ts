// Event and invitation rows for tests (the shared factories hold the core model only).
import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { Company } from '../../src/modules/company/company.entity';
import { User } from '../../src/modules/user/user.entity';
import { Event, EventAttendee } from '../../src/modules/event/event.entity';

export async function createEvent(orm: MikroORM, companyId: number, data: Partial<Event> = {}): Promise<Event> {
  const em = orm.em.fork();
  const start = data.utcStart ?? new Date(Date.now() + 86_400_000);
  const event = em.create(Event, {
    eventUUID: crypto.randomUUID(),
    company: em.getReference(Company, companyId),
    name: `Event ${crypto.randomBytes(3).toString('hex')}`,
    timezoneId: 'Australia/Sydney',
    utcStart: start,
    utcEnd: new Date(start.getTime() + 3_600_000),
    ...data,
  } as any);
  await em.flush();
  return event;
}

export async function invite(orm: MikroORM, eId: number, userId: number, data: Partial<EventAttendee> = {}): Promise<EventAttendee> {
  const em = orm.em.fork();
  const row = em.create(EventAttendee, { inviteUUID: crypto.randomUUID(), event: em.getReference(Event, eId), user: em.getReference(User, userId), ...data } as any);
  await em.flush();
  return row;
}
