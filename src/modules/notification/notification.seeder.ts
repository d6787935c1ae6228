// Demo tenant: a team of company 1001 (Olivia and Cara), two ad hoc GT notifications Cara sent
// to it, a scheduled GT notification already sent with its sent record, and an ad hoc GE
// notification to the invitees of the first demo event; each delivered to the inboxes. Olivia has
// read the two oldest of her four (welcome, flu clinic); the roster reminder and the event note are unread.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { Company } from '../company';
import { User } from '../user';
import { Team, TeamMember } from '../team';
import { localToUtc } from '../../core/zoned-time';
import { NotificationInbox, ScheduledNotification, SentNotification } from './notification.entity';
import { DEMO_COMPANIES, DEMO_USERS, demoEventUuid, DEMO_TEAM_ID, DEMO_SCHEDULE_ID, DEMO_SENT_IDS } from '../../db/demo';

export class NotificationSeeder extends Seeder {
  async run(em: EntityManager): Promise<void> {
    const company = em.getReference(Company, DEMO_COMPANIES.northwind);
    const olivia = em.getReference(User, DEMO_USERS.olivia);
    const cara = em.getReference(User, DEMO_USERS.cara);
    const team = em.create(Team, { teamId: DEMO_TEAM_ID, company, teamName: 'Northwind Clinicians' });
    em.create(TeamMember, { team, user: olivia });
    em.create(TeamMember, { team, user: cara, isTeamAdmin: true });
    const by = String(DEMO_USERS.cara);
    const teamIds = [String(DEMO_TEAM_ID)];

    /** `read`: when a recipient (by user id) read it; the others have not. */
    const sent = (id: number, at: string, data: Partial<SentNotification>, recipients: User[], read: Record<number, string> = {}) => {
      const when = new Date(at);
      const n = em.create(SentNotification, {
        notificationId: id,
        type: 'GT',
        company,
        message: '',
        successful: true,
        totalNotificationsSent: recipients.length,
        notificationLog: 'Success',
        notificationCreated: when,
        notificationModified: when,
        notificationCreatedBy: by,
        notificationModifiedBy: by,
        ...data,
      });
      for (const user of recipients) {
        const readAt = read[user.uId] ? new Date(read[user.uId]) : null;
        em.create(NotificationInbox, { notification: n, user, deliveredAt: when, readAt });
      }
      return n;
    };

    const welcome = 'Welcome to the Northwind Health wall: events, resources and news for our clinicians.';
    sent(
      DEMO_SENT_IDS.welcome,
      '2026-11-01T00:00:00Z',
      { message: welcome, description: `${welcome}\nTeam ids: ${DEMO_TEAM_ID}` },
      [olivia, cara],
      { [DEMO_USERS.olivia]: '2026-11-01T08:15:00Z' },
    );
    const flu = 'The staff flu vaccination clinic is open all week in the Haymarket building, level 2.';
    sent(
      DEMO_SENT_IDS.flu,
      '2026-11-10T01:30:00Z',
      { message: flu, description: `${flu}\nTeam ids: ${DEMO_TEAM_ID}`, url: 'https://northwindhealth.example/flu-clinic' },
      [olivia, cara],
      { [DEMO_USERS.olivia]: '2026-11-10T04:00:00Z' },
    );

    const reminder = 'Reminder: the December rosters are published on the wall.';
    const local = '2026-11-15T09:00:00';
    const dueAt = localToUtc(local, 'Australia/Sydney');
    const schedule = em.create(ScheduledNotification, {
      notificationScheduleId: DEMO_SCHEDULE_ID,
      company,
      broadcastType: 'GT',
      keyCompanyId: DEMO_COMPANIES.northwind,
      scheduleTimezoneId: 'Australia/Sydney',
      scheduleLocalDateTime: local,
      scheduleDueAt: dueAt,
      message: reminder,
      valueIds: teamIds,
      totalNotificationsSent: 2,
      notificationLog: 'Success',
      status: 'SENT',
      attempts: 1,
      scheduleCreated: new Date('2026-11-12T03:00:00Z'),
      scheduleModified: dueAt,
      scheduleCreatedBy: by,
      scheduleModifiedBy: by,
    });
    sent(DEMO_SENT_IDS.scheduled, dueAt.toISOString(), { schedule, message: reminder, description: reminder, teamIds }, [olivia, cara]);

    const eventNote = 'Parking at the auditorium is free for attendees of this session.';
    sent(
      DEMO_SENT_IDS.event,
      '2026-11-18T05:00:00Z',
      { type: 'GE', eventUUID: demoEventUuid(1), message: eventNote, description: eventNote },
      [olivia],
    );
  }
}
