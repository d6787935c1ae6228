import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { ServiceError } from '../../core/errors';
import { isDependencyFailure } from '../../core/error-mapping';
import { referenceViewer } from './user.reference';
import { countryName, listTimezones } from '../reference-data';
import type { User } from './user.entity';
import { Gender, Title } from './user-reference.entity';
import { ProfileUpdateResult, UserProfile } from './profile.types';
import { UpdateUserProfileInput } from './profile.inputs';
import { updateUserProfile } from './profile.service';
import { genderRows, titleRows } from './user.queries';

@Resolver(() => UserProfile)
@ServiceBoundary('WSUserServiceException')
export class UserProfileResolver {
  @Query(() => UserProfile, { description: "The caller's profile, every field present (findUserProfile)." })
  async userProfile(@Ctx() ctx: Context): Promise<User> {
    return (await ctx.auth.requireUser()).user;
  }

  @Query(() => UserProfile, {
    description:
      "The caller (the viewer): their profile, as userProfile answers it, and the edges to what they see (connections, events, libraries, directories). The root of a client's home screen.",
  })
  async me(@Ctx() ctx: Context): Promise<User> {
    return (await ctx.auth.requireUser()).user;
  }

  @Mutation(() => ProfileUpdateResult, {
    description: "Updates the caller's profile: only fields whose value differs are written (updateUserProfile).",
  })
  async updateUserProfile(
    @Arg('input', () => UpdateUserProfileInput, { description: 'The profile fields; uId must be the caller.' })
    input: UpdateUserProfileInput,
    @Ctx() ctx: Context,
  ): Promise<ProfileUpdateResult> {
    const { user } = await ctx.auth.requireUser();
    const updatedFieldCount = await updateUserProfile(ctx.em, ctx.services.hooks, user.uId, input);
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

  @FieldResolver(() => String, {
    name: 'uTimezoneName',
    nullable: true,
    description: 'Standard-time display name of the time zone (an addition to the spec).',
  })
  timezoneName(@Root() user: User): string | null {
    if (user.timezoneId == null) return null;
    return listTimezones().find((z) => z.timezoneId === user.timezoneId)?.timezoneName ?? null;
  }
}

@Resolver()
@ServiceBoundary('WSRefDataServiceException')
export class UserReferenceDataResolver {
  @Query(() => [Title], { description: 'Titles a profile can carry (uTitleId).' })
  titles(@Ctx() ctx: Context): Promise<Title[]> {
    return titleRows.run(ctx.em);
  }

  @Query(() => [Gender], { description: 'Genders a profile can carry (uGenderCode).' })
  genders(@Ctx() ctx: Context): Promise<Gender[]> {
    return genderRows.run(ctx.em);
  }
}

/**
 * Federation reference resolver of User. Rule: a profile is personal data, and the only root
 * operation that reads one is userProfile, the caller's own. So a user resolves only their own
 * reference (any other uId is null, with WSInsufficientPrivilegesException, whether it exists
 * or not); the router's federation token resolves active users (a deactivated user's profile
 * is served to no one); no credential is WSInvalidAuthTokenException. Unknown ids are null.
 * Batched: the userById loader, one statement for every representation of the request.
 */
export async function resolveUserReference(reference: { uId: number | string }, ctx: Context): Promise<User | null> {
  try {
    const viewer = await referenceViewer(ctx);
    const uId = Number(reference.uId);
    if (viewer.kind === 'user' && viewer.user.uId !== uId) {
      throw new ServiceError('WSInsufficientPrivilegesException', 'A user can only resolve their own profile.');
    }
    if (!Number.isInteger(uId) || Math.abs(uId) > 0x7fffffff) return null; // not a PostgreSQL integer: unknown
    const user = await ctx.loaders.userById.load(uId);
    return user && user.active ? user : null;
  } catch (err) {
    // Outside type-graphql, so ServiceBoundary does not apply: the same rule by hand.
    if (!(err instanceof ServiceError) && isDependencyFailure(err))
      throw new ServiceError('WSUserServiceException', undefined, { cause: err });
    throw err;
  }
}
