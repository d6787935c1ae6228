// UserEvent (an invitation, as the invitee's lists show it) as a Node, keyed by eventInviteUUID:
// node(id:) answers the caller's own invitations to active events, the records userEvents and
// User.events list (and to no one else, as those lists are the invitee's alone). One statement for
// any number of ids.
import { NODE_KEY, type NodeType } from '../../graphql/node';
import type { Context } from '../../context';
import { readInvitationsByUuid } from './event.reads';
import type { UserEventView } from './event.types';

export const userEventNode: NodeType = {
  key: (invitation: UserEventView) => invitation.eventInviteUUID,
  async load(keys, ctx: Context) {
    const { user } = await ctx.auth.requireUser();
    const uuids = [...new Set(keys.filter((key) => NODE_KEY.uuid.test(key)))];
    const found = uuids.length ? await readInvitationsByUuid(ctx.em, user.uId, uuids) : [];
    const byUuid = new Map(found.map((invitation) => [invitation.eventInviteUUID, invitation]));
    return keys.map((key) => byUuid.get(key) ?? null);
  },
};
