// Connection as a Node: its key is the user and the company (`4:7`), as a user has at most one
// connection with a company. node(id:) answers the caller's own connections (myConnections,
// User.connections, Company.viewerConnection) and those of the companies they are an ADMIN of
// (companyConnections), whatever their status, as those fields do: one statement for any number of ids.
import { nodeIntPair, type NodeType } from '../../graphql/node';
import type { Context } from '../../context';
import { intArray } from '../../db/sql';
import { asConnection, connectionsReadableBy } from './connection.queries';
import type { Connection } from './connection.types';

export const connectionNode: NodeType = {
  key: (connection: Connection) => `${connection.userId}:${connection.companyId}`,
  async load(keys, ctx: Context) {
    const { user } = await ctx.auth.requireUser();
    const pairs = keys.map(nodeIntPair).filter((pair) => pair !== null);
    const found = pairs.length
      ? (
          await connectionsReadableBy.run(ctx.em, {
            viewerId: user.uId,
            userIds: intArray(pairs.map(([u]) => u)),
            companyIds: intArray(pairs.map(([, c]) => c)),
          })
        ).map(asConnection)
      : [];
    const byKey = new Map(found.map((connection) => [`${connection.userId}:${connection.companyId}`, connection]));
    return keys.map((key) => byKey.get(key) ?? null);
  },
};
