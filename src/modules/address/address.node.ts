// Address as a Node, keyed by its uuid. node(id:) reads the caller's own profile addresses, as
// userAddresses does (one statement, the request's loader). The addresses of the caller's contact
// records carry ids of the same form, which node(id:) does not resolve: their rule is the
// directory's (directoryContactAddresses), which this module cannot ask.
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
