import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root, UseMiddleware } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { ServiceError } from '../../graphql/errors';
import { isDependencyFailure } from '../../graphql/error-mapping';
import { requireSystem, requireUser } from '../identity/principal';
import { countryName, listTimezones } from '../reference-data/iso';
import type { User } from './user.entity';
import { Gender, Title } from './user-reference.entity';
import { ProfileUpdateResult, UserProfile } from './profile.types';
import { UpdateUserProfileInput } from './profile.inputs';
import { updateUserProfile } from './profile.service';

@Resolver(() => UserProfile)
@UseMiddleware(ServiceBoundary('WSUserServiceException'))
export class UserProfileResolver {
  @Query(() => UserProfile, { description: "The caller's profile, every field present (findUserProfile)." })
  async userProfile(@Ctx() ctx: Context): Promise<User> {
    return (await requireUser(ctx)).user;
  }

  @Mutation(() => ProfileUpdateResult, { description: "Updates the caller's profile: only fields whose value differs are written (updateUserProfile)." })
  async updateUserProfile(
    @Arg('input', () => UpdateUserProfileInput, { description: 'The profile fields; uId must be the caller.' }) input: UpdateUserProfileInput,
    @Ctx() ctx: Context,
  ): Promise<ProfileUpdateResult> {
    const { user } = await requireUser(ctx);
    const updatedFieldCount = await updateUserProfile(ctx.em, user.uId, input);
    if (updatedFieldCount) ctx.loaders.userById.clear(user.uId);
    return { updatedFieldCount };
  }

  @FieldResolver(() => String, { name: 'uTitle', nullable: true, description: 'Name of the title.' })
  async title(@Root() user: User, @Ctx() ctx: Context): Promise<string | null> {
    return user.titleId == null ? null : ((await ctx.loaders.titleById.load(user.titleId))?.titleName ?? null);
  }

  @FieldResolver(() => String, { name: 'uGenderName', nullable: true, description: 'Name of the gender.' })
  async genderName(@Root() user: User, @Ctx() ctx: Context): Promise<string | null> {
    return user.genderCode == null ? null : ((await ctx.loaders.genderByCode.load(user.genderCode))?.genderName ?? null);
  }

  @FieldResolver(() => String, { name: 'uCountryName', nullable: true, description: 'English name of the country.' })
  countryName(@Root() user: User): string | null {
    return user.countryCode == null ? null : countryName(user.countryCode);
  }

  @FieldResolver(() => String, { name: 'uProfessionName', nullable: true, description: 'Name of the profession.' })
  async professionName(@Root() user: User, @Ctx() ctx: Context): Promise<string | null> {
    return user.professionId == null ? null : ((await ctx.loaders.professionById.load(user.professionId))?.professionName ?? null);
  }

  @FieldResolver(() => String, { name: 'uSpecialtyName', nullable: true, description: 'Name of the specialty.' })
  async specialtyName(@Root() user: User, @Ctx() ctx: Context): Promise<string | null> {
    return user.specialtyId == null ? null : ((await ctx.loaders.specialtyById.load(user.specialtyId))?.specialtyName ?? null);
  }

  @FieldResolver(() => String, { name: 'uConditionName', nullable: true, description: 'Name of the condition.' })
  async conditionName(@Root() user: User, @Ctx() ctx: Context): Promise<string | null> {
    return user.conditionId == null ? null : ((await ctx.loaders.conditionById.load(user.conditionId))?.conditionName ?? null);
  }

  @FieldResolver(() => String, { name: 'uTimezoneName', nullable: true, description: 'Standard-time display name of the time zone (an addition to the spec).' })
  timezoneName(@Root() user: User): string | null {
    if (user.timezoneId == null) return null;
    return listTimezones().find((z) => z.timezoneId === user.timezoneId)?.timezoneName ?? null;
  }
}

@Resolver()
@UseMiddleware(ServiceBoundary('WSRefDataServiceException'))
export class UserReferenceDataResolver {
  @Query(() => [Title], { description: 'Titles a profile can carry (uTitleId).' })
  titles(@Ctx() ctx: Context): Promise<Title[]> {
    return ctx.em.find(Title, {}, { orderBy: { titleId: 'asc' } });
  }

  @Query(() => [Gender], { description: 'Genders a profile can carry (uGenderCode).' })
  genders(@Ctx() ctx: Context): Promise<Gender[]> {
    return ctx.em.find(Gender, {}, { orderBy: { genderName: 'asc' } });
  }
}

/**
 * Federation reference resolver of User. A profile is personal data, so a reference resolves
 * for the user themself (x-service-authtoken) or for a trusted graph client holding a system
 * token with the `federation` scope (x-api-key), never for other users. Unknown ids are null.
 */
export async function resolveUserReference(reference: { uId: number }, ctx: Context): Promise<User | null> {
  try {
    if (ctx.credentials.apiKey) {
      await requireSystem(ctx, 'federation');
    } else {
      const { user } = await requireUser(ctx);
      if (user.uId !== reference.uId) throw new ServiceError('WSInsufficientPrivilegesException', 'A user can only resolve their own profile.');
    }
    return await ctx.loaders.userById.load(reference.uId);
  } catch (err) {
    // Outside type-graphql, so ServiceBoundary does not apply: the same rule by hand.
    if (!(err instanceof ServiceError) && isDependencyFailure(err)) throw new ServiceError('WSUserServiceException', undefined, { cause: err });
    throw err;
  }
}
