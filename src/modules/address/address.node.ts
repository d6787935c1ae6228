// Address as a Node, keyed by its uuid. node(id:) reads the caller's own profile addresses, as
// userAddresses does (one statement, the request's loader). The addresses of contact records carry
// ids of the same form under the directory's rule, which this module cannot ask: the directory
// module adds their loader (src/modules/directory/directory.node.ts), asked for the keys left null here.
import type { NodeType } from '../../graphql/node';
import type { Context } from '../../context';
import type { AddressColumns } from './address.entity';

export const addressNode: NodeType = {
  key: (address: AddressColumns) => address.uuid,
  async load(keys, ctx: Context) {
    const { user } = await ctx.auth.requireUser();
    const mine = new Map((await ctx.loaders.userAddresses.load(user.uId)).map((a) => [a.uuid, a]));
    return keys.map((key) => mine.get(key) ?? null);
  },
};
