// InboxNotification as a Node: its id is the inbox's owner and the notification (a notification id
// is unique only within one inbox), and only the owner reads it, as User.notifications and the
// REST inbox allow. The owner of every item a request hands out is the caller: no other inbox is
// ever read.
import { nodeIntPair, type NodeType } from '../../graphql/node';
import type { Context } from '../../context';
import { readInboxItems } from './inbox.reads';
import type { InboxNotification } from './inbox.types';

export const inboxNode: NodeType = {
  key: async (item: InboxNotification, ctx: Context) => `${(await ctx.auth.requireUser()).user.uId}:${item.notificationId}`,
  async load(keys, ctx) {
    const { user } = await ctx.auth.requireUser();
    const wanted = keys.map((key) => {
      const pair = nodeIntPair(key);
      return pair && pair[0] === user.uId ? pair[1] : null;
    });
    const ids = wanted.filter((id): id is number => id !== null);
    const items = ids.length ? await readInboxItems(ctx.em, user.uId, ids) : [];
    const byId = new Map(items.map((item) => [item.notificationId, item]));
    return wanted.map((id) => (id === null ? null : (byId.get(id) ?? null)));
  },
};
