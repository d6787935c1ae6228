// InboxNotification as a Node: its id is the inbox's owner and the notification (a notification id
// is unique only within one inbox), and only the owner reads it, as User.notifications and the
// REST inbox allow. The owner of every item a request hands out is the caller: no other inbox is
// ever read.
import type { NodeType } from '../../graphql/node';
import type { Context } from '../../context';
import { readInboxItems } from './inbox.reads';
import type { InboxNotification } from './inbox.types';

const KEY = /^([1-9][0-9]{0,9}):([1-9][0-9]{0,9})$/;

export const inboxNode: NodeType = {
  key: async (item: InboxNotification, ctx: Context) => `${(await ctx.auth.requireUser()).user.uId}:${item.notificationId}`,
  async load(keys, ctx) {
    const { user } = await ctx.auth.requireUser();
    const wanted = keys.map((key) => {
      const m = KEY.exec(key);
      return m && Number(m[1]) === user.uId && Number(m[2]) <= 0x7fffffff ? Number(m[2]) : null;
    });
    const ids = wanted.filter((id): id is number => id !== null);
    const items = ids.length ? await readInboxItems(ctx.em, user.uId, ids) : [];
    const byId = new Map(items.map((item) => [item.notificationId, item]));
    return wanted.map((id) => (id === null ? null : (byId.get(id) ?? null)));
  },
};
