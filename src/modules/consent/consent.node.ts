// EConsent as a Node, keyed by consentUUID. Two fields hand consents out, and node(id:) answers a
// consent to whoever either would show it to: Query.eConsents lists the active company and event
// consents (type C) to every signed-in user, asking nothing of the company or event; a directory's
// consents (SmartDirectory.consents, active, of any type) go to whoever can open the directory,
// the chain of Query.smartDirectory. Two statements for any number of ids: the consents with the
// caller's answers, and the caller's standing in their directories.
import type { Context } from '../../context';
import { NODE_KEY, type NodeType } from '../../graphql/node';
import { consentRowsByUuid, type EConsentRow } from '../directory';

/** Whether Query.eConsents lists the consent: type C of a company (with no event) or of an event. */
const listedByEConsents = (row: EConsentRow) => row.consentTypeCode === 'C' && (row.eventUUID != null || row.companyId != null);

export const eConsentNode: NodeType = {
  key: (consent: { consentUUID: string }) => consent.consentUUID,
  async load(keys, ctx: Context) {
    const { user } = await ctx.auth.requireUser();
    const uuids = keys.filter((key) => NODE_KEY.uuid.test(key));
    const rows = uuids.length ? await consentRowsByUuid.run(ctx.em, { userId: user.uId, consentUUIDs: uuids }) : [];
    const directories = [...new Set(rows.flatMap((row) => (row.directoryUUID ? [row.directoryUUID] : [])))];
    const standings = await ctx.loaders.directoryStanding(user.uId).loadMany(directories);
    const opens = new Set(directories.filter((_uuid, i) => !(standings[i] instanceof Error)));
    const readable = new Map(
      rows.flatMap((row) =>
        listedByEConsents(row) || (row.directoryUUID !== null && opens.has(row.directoryUUID)) ? [[row.consentUUID, row] as const] : [],
      ),
    );
    return keys.map((key) => readable.get(key) ?? null);
  },
};
