import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { countryName, stateName } from '../reference-data';
import type { User } from '../user';
import { UserProfile } from '../user';
import { ADDRESS_TYPES, AddressColumns, type UserAddress } from './address.entity';
import { AddressInput } from './address.inputs';
import { createUserAddress, deleteUserAddress, updateUserAddress } from './address.service';

/** The response-only fields every address (user or contact) derives from its codes. */
@Resolver(() => AddressColumns)
export class AddressResolver {
  @FieldResolver(() => String, { description: 'Long form of typeCode: Work, Personal or Other.' })
  type(@Root() address: AddressColumns): string {
    return ADDRESS_TYPES[address.typeCode];
  }

  @FieldResolver(() => String, { nullable: true, description: 'English name of the state (ISO 3166-2).' })
  state(@Root() address: AddressColumns): string | null {
    return address.stateCode && address.countryCode ? stateName(address.countryCode, address.stateCode) : null;
  }

  @FieldResolver(() => String, { nullable: true, description: 'English name of the country.' })
  country(@Root() address: AddressColumns): string | null {
    return address.countryCode ? countryName(address.countryCode) : null;
  }
}

const uuidArg = { description: "uuid of one of the caller's addresses." };

@Resolver(() => UserProfile)
@ServiceBoundary('WSAddressServiceException')
export class UserAddressResolver {
  @FieldResolver(() => [AddressColumns], { description: 'Addresses of the user, oldest first (batched per request).' })
  addresses(@Root() user: User, @Ctx() ctx: Context): Promise<AddressColumns[]> {
    return ctx.loaders.userAddresses.load(user.uId);
  }

  @Query(() => [AddressColumns], { description: "The caller's addresses, oldest first." })
  async userAddresses(@Ctx() ctx: Context): Promise<AddressColumns[]> {
    const { user } = await ctx.auth.requireUser();
    return ctx.loaders.userAddresses.load(user.uId);
  }

  @Mutation(() => AddressColumns, { description: "Adds an address to the caller's profile; typeCode is required." })
  async createUserAddress(
    @Arg('input', () => AddressInput, { description: 'The address fields.' }) input: AddressInput,
    @Ctx() ctx: Context,
  ): Promise<UserAddress> {
    const { user } = await ctx.auth.requireUser();
    const address = await createUserAddress(ctx.em, user.uId, input);
    ctx.loaders.userAddresses.clear(user.uId);
    return address;
  }

  @Mutation(() => AddressColumns, { description: "Updates one of the caller's addresses (updateUserAddressByAddressUUID)." })
  async updateUserAddress(
    @Arg('addressUUID', () => String, uuidArg) addressUUID: string,
    @Arg('input', () => AddressInput, { description: 'The fields to change; uuid must equal addressUUID.' }) input: AddressInput,
    @Ctx() ctx: Context,
  ): Promise<UserAddress> {
    const { user } = await ctx.auth.requireUser();
    const address = await updateUserAddress(ctx.em, user.uId, addressUUID, input);
    ctx.loaders.userAddresses.clear(user.uId);
    return address;
  }

  @Mutation(() => Boolean, { description: "Deletes one of the caller's addresses; directory copies of it stay, unlinked." })
  async deleteUserAddress(@Arg('addressUUID', () => String, uuidArg) addressUUID: string, @Ctx() ctx: Context): Promise<boolean> {
    const { user } = await ctx.auth.requireUser();
    await deleteUserAddress(ctx.em, user.uId, addressUUID);
    ctx.loaders.userAddresses.clear(user.uId);
    return true;
  }
}
