// The smart library's seam: an entry published with sendNotification: true notifies the
// library's audience through this module (its smartEntryPublished hook, declared in the module's
// definition), inside the library's transaction.
import { createCompany, createTeam, createUser, useTestApp } from '../kit';
import { NotificationInbox, SentNotification } from '../../src/modules/notification/notification.entity';

const t = useTestApp();

const entry = { smartEntryId: 1, smartEntryName: 'Discharge checklist', smartEntryType: 'URL', smartEntryDesc: null };

it("when a team library publishes an entry, then the team's members are notified in the same transaction", async () => {
  const company = await createCompany(t.orm);
  const [publisher, member] = [await createUser(t.orm), await createUser(t.orm)];
  const team = await createTeam(t.orm, company.companyId, [publisher.uId, member.uId]);
  await t.orm.em.fork().transactional((em) =>
    t.app.services.hooks.emit('smartEntryPublished', {
      em,
      library: { smartLibId: 1, smartLibName: 'Ward library', companyId: company.companyId, teamId: team.teamId },
      entry,
      publishedBy: publisher.uId,
    }),
  );
  const sent = await t.orm.em.fork().find(SentNotification, { company: company.companyId });
  expect(sent.map((n) => [n.type, n.message, n.notificationCreatedBy, n.totalNotificationsSent])).toEqual([
    ['GT', 'New in Ward library: Discharge checklist', String(publisher.uId), 2],
  ]);
  expect(await t.orm.em.fork().count(NotificationInbox, { notification: sent[0].notificationId })).toBe(2);
});

it('when a company-wide library publishes and the transaction then fails, then no notification is left behind', async () => {
  const company = await createCompany(t.orm);
  const publisher = await createUser(t.orm);
  await createTeam(t.orm, company.companyId, [publisher.uId]);
  const publish = (fail: boolean) =>
    t.orm.em.fork().transactional(async (em) => {
      await t.app.services.hooks.emit('smartEntryPublished', {
        em,
        library: { smartLibId: 2, smartLibName: 'Company library', companyId: company.companyId, teamId: null },
        entry,
        publishedBy: publisher.uId,
      });
      if (fail) throw new Error('entry insert failed');
    });
  await expect(publish(true)).rejects.toThrow('entry insert failed');
  expect(await t.orm.em.fork().count(SentNotification, { company: company.companyId })).toBe(0);
  await publish(false);
  const [sent] = await t.orm.em.fork().find(SentNotification, { company: company.companyId });
  expect(sent).toMatchObject({ type: 'JN', totalNotificationsSent: 1 });
});
