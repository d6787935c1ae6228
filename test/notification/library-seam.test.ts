// The smart library's seam: an entry published with sendNotification: true notifies the
// library's audience through this module, inside the library's transaction.
import type { MikroORM } from '@mikro-orm/core';
import { startTestApp, type TestApp } from '../helpers/app';
import { createCompany, createTeam, createUser } from '../factories';
import { notifySmartEntryPublished } from '../../src/modules/library/library.hooks';
import { NotificationInbox, SentNotification } from '../../src/modules/notification/notification.entity';

let t: TestApp;
let orm: MikroORM;
beforeAll(async () => {
  t = await startTestApp();
  orm = t.db.orm;
});
afterAll(() => t.close());

const entry = { smartEntryId: 1, smartEntryName: 'Discharge checklist', smartEntryType: 'URL', smartEntryDesc: null };

it("when a team library publishes an entry, then the team's members are notified in the same transaction", async () => {
  const company = await createCompany(orm);
  const [publisher, member] = [await createUser(orm), await createUser(orm)];
  const team = await createTeam(orm, company.companyId, [publisher.uId, member.uId]);
  await orm.em.fork().transactional((em) =>
    notifySmartEntryPublished({ em, library: { smartLibId: 1, smartLibName: 'Ward library', companyId: company.companyId, teamId: team.teamId }, entry, publishedBy: publisher.uId }),
  );
  const sent = await orm.em.fork().find(SentNotification, { company: company.companyId });
  expect(sent.map((n) => [n.type, n.message, n.notificationCreatedBy, n.totalNotificationsSent])).toEqual([['GT', 'New in Ward library: Discharge checklist', String(publisher.uId), 2]]);
  expect(await orm.em.fork().count(NotificationInbox, { notification: sent[0].notificationId })).toBe(2);
});

it('when a company-wide library publishes and the transaction then fails, then no notification is left behind', async () => {
  const company = await createCompany(orm);
  const publisher = await createUser(orm);
  await createTeam(orm, company.companyId, [publisher.uId]);
  const publish = (fail: boolean) =>
    orm.em.fork().transactional(async (em) => {
      await notifySmartEntryPublished({ em, library: { smartLibId: 2, smartLibName: 'Company library', companyId: company.companyId, teamId: null }, entry, publishedBy: publisher.uId });
      if (fail) throw new Error('entry insert failed');
    });
  await expect(publish(true)).rejects.toThrow('entry insert failed');
  expect(await orm.em.fork().count(SentNotification, { company: company.companyId })).toBe(0);
  await publish(false);
  const [sent] = await orm.em.fork().find(SentNotification, { company: company.companyId });
  expect(sent).toMatchObject({ type: 'JN', totalNotificationsSent: 1 });
});
