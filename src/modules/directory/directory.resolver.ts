import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { isDependencyFailure } from '../../core/error-mapping';
import { ServiceError, type ErrorCode } from '../../core/errors';
import { referenceViewer, requireOwnUser, UserProfile } from '../user';
import { Company, visibleCompany } from '../company';
import { FieldDefinition } from '../reference-data';
import { ConsentDefinition } from './consent.entity';
import { AddressColumns } from '../address';
import { AddressInput } from '../address';
import { parseUuid } from '../../core/uuid';
import { ContactAddress, SmartDirectory } from './directory.entity';
import { DirectoryContact } from './directory.types';
import { requireDirectoryContact } from './directory.access';
import { shownFields, visibleContacts, type DirectoryViewer } from './contact-visibility';
import { MAX_COPY, copyAddressesFromUser, listContactAddresses, updateContactAddress } from './contact-address.service';
import { createContactRecord } from './directory.service';
import type { DirectoryRoot } from './directory.reads';

const SERVICE: ErrorCode = 'WSSmartDirectoryServiceException';

/** The chain for reading a directory: up to and including its required consents. */
async function openDirectory(ctx: Context, directoryUUID: string): Promise<SmartDirectory> {
  const { user } = await ctx.auth.requireUser();
  const uuid = parseUuid(directoryUUID, 'directoryUUID');
  const { directory, member } = await requireDirectoryContact(ctx.em, user.uId, uuid, { addresses: false });
  // The chain just walked is the caller's standing: the contacts field reads it from the loader.
  ctx.loaders.directoryStanding(user.uId).prime(uuid, { admin: member.isTeamAdmin });
  return directory;
}

/** Who reads the directory's contacts: the router (as a team admin sees them) or a user, with
 * their standing (primed by the query or the reference that opened the directory). */
async function directoryViewer(ctx: Context, uuid: string): Promise<DirectoryViewer> {
  const viewer = await referenceViewer(ctx);
  if (viewer.kind === 'router') return { userId: null, admin: true };
  const { admin } = await ctx.loaders.directoryStanding(viewer.user.uId).load(uuid);
  return { userId: viewer.user.uId, admin };
}

const uuidArg = { description: 'UUID of the smart directory.' };

@Resolver(() => SmartDirectory)
@ServiceBoundary(SERVICE)
export class SmartDirectoryResolver {
  @Query(() => SmartDirectory, { description: 'A directory the caller holds a consented contact record in, with its contacts.' })
  smartDirectory(@Arg('directoryUUID', () => String, uuidArg) directoryUUID: string, @Ctx() ctx: Context): Promise<SmartDirectory> {
    return openDirectory(ctx, directoryUUID);
  }

  @FieldResolver(() => Int, { description: 'Company the directory belongs to.' })
  companyId(@Root() directory: DirectoryRoot): number {
    return directory.company.companyId;
  }

  @FieldResolver(() => Company, {
    nullable: true,
    description:
      'The company the directory belongs to, as the caller may see a company: null for a hidden wall or an inactive company unless the caller has a connection with it or is its ADMIN.',
  })
  company(@Root() directory: DirectoryRoot, @Ctx() ctx: Context): Promise<Company | null> {
    return visibleCompany(ctx, directory.company.companyId);
  }

  @FieldResolver(() => Int, { description: "Team whose members are the directory's contacts." })
  teamId(@Root() directory: DirectoryRoot): number {
    return directory.team.teamId;
  }

  @FieldResolver(() => [FieldDefinition], { description: 'Fields the directory shows (directoryFieldIds), first and last name included.' })
  fields(@Root() directory: DirectoryRoot, @Ctx() ctx: Context): Promise<FieldDefinition[]> {
    return ctx.loaders.directoryFields.load(directory.directoryUUID);
  }

  @FieldResolver(() => [ConsentDefinition], {
    description: 'Consents (type DS) the directory asks for; required ones gate the contact record.',
  })
  consents(@Root() directory: DirectoryRoot, @Ctx() ctx: Context): Promise<ConsentDefinition[]> {
    return ctx.loaders.directoryConsents.load(directory.directoryUUID);
  }

  @FieldResolver(() => [DirectoryContact], {
    description: "Consented contacts the caller may see, in the directory's name order (see the directory types in docs/api/directory.md).",
  })
  async contacts(@Root() directory: DirectoryRoot, @Ctx() ctx: Context): Promise<DirectoryContact[]> {
    const viewer = await directoryViewer(ctx, directory.directoryUUID);
    const [fields, records] = await Promise.all([
      ctx.loaders.directoryFields.load(directory.directoryUUID),
      ctx.loaders.consentedContacts.load(directory.directoryUUID),
    ]);
    return visibleContacts(directory, shownFields(fields), records, viewer);
  }

  @Query(() => [AddressColumns], {
    description: "Addresses of the caller's contact record in the directory (getAddressesForDirectoryContact).",
  })
  async directoryContactAddresses(
    @Arg('directoryUUID', () => String, uuidArg) directoryUUID: string,
    @Ctx() ctx: Context,
  ): Promise<AddressColumns[]> {
    const { user } = await ctx.auth.requireUser();
    return listContactAddresses(ctx.em, user.uId, directoryUUID);
  }

  @Mutation(() => AddressColumns, {
    description:
      "Updates an address of the caller's contact record; with Sync Up, also its linked profile address and copies (updateAddressForDirectoryContact).",
  })
  async updateDirectoryContactAddress(
    @Arg('directoryUUID', () => String, uuidArg) directoryUUID: string,
    @Arg('addressUUID', () => String, { description: 'uuid of the contact address.' }) addressUUID: string,
    @Arg('input', () => AddressInput, { description: 'The fields to change; uuid must equal addressUUID.' }) input: AddressInput,
    @Ctx() ctx: Context,
  ): Promise<ContactAddress> {
    const { user } = await ctx.auth.requireUser();
    return updateContactAddress(ctx.em, user.uId, directoryUUID, addressUUID, input);
  }

  @Mutation(() => [AddressColumns], {
    description: "Copies profile addresses into the caller's contact record, all or none (copyAddressesFromUserToDirectoryContact).",
  })
  async copyUserAddressesToDirectoryContact(
    @Arg('directoryUUID', () => String, uuidArg) directoryUUID: string,
    @Arg('addressUUIDs', () => [String], { description: `uuids of the caller's profile addresses: 1 to ${MAX_COPY}, distinct.` })
    addressUUIDs: string[],
    @Ctx() ctx: Context,
  ): Promise<ContactAddress[]> {
    const { user } = await ctx.auth.requireUser();
    return copyAddressesFromUser(ctx.em, user.uId, directoryUUID, addressUUIDs);
  }

  @Mutation(() => DirectoryContact, {
    description:
      "Creates the caller's contact record in a directory of a team they belong to (names from the profile; more when the directory fills from profiles).",
  })
  async createDirectoryContactRecord(
    @Arg('directoryUUID', () => String, uuidArg) directoryUUID: string,
    @Ctx() ctx: Context,
  ): Promise<DirectoryContact> {
    const { user } = await ctx.auth.requireUser();
    const uuid = parseUuid(directoryUUID, 'directoryUUID');
    const record = await createContactRecord(ctx.em, user, uuid);
    const fields = await ctx.loaders.directoryFields.load(uuid);
    return visibleContacts(record.directory, shownFields(fields), [record], { userId: user.uId, admin: false })[0];
  }
}

const OPEN_DIRECTORIES =
  'The directories the caller can open with Query.smartDirectory (the company has the feature, the directory is active, the caller is a member of its team ' +
  'and holds a contact record there with the required consents given), by name; their contacts follow the directory types as that query shows them.';

@Resolver(() => UserProfile)
@ServiceBoundary(SERVICE)
export class UserDirectoriesResolver {
  @FieldResolver(() => [SmartDirectory], {
    description: `${OPEN_DIRECTORIES} Only the caller's own: on any other user (a federation reference resolved with the router token) the field is refused with WSInsufficientPrivilegesException.`,
  })
  async smartDirectories(@Root() user: UserProfile, @Ctx() ctx: Context): Promise<DirectoryRoot[]> {
    const uId = await requireOwnUser(ctx, user, 'directories');
    return ctx.loaders.openDirectoriesOf.load(uId);
  }
}

@Resolver(() => Company)
@ServiceBoundary(SERVICE)
export class CompanyDirectoriesResolver {
  @FieldResolver(() => [SmartDirectory], {
    description: `Of this company: ${OPEN_DIRECTORIES.charAt(0).toLowerCase()}${OPEN_DIRECTORIES.slice(1)} Empty for the router token, which opens no directory as a user.`,
  })
  async smartDirectories(@Root() company: Company, @Ctx() ctx: Context): Promise<DirectoryRoot[]> {
    const viewer = await referenceViewer(ctx);
    if (viewer.kind !== 'user') return [];
    return ctx.loaders.openDirectoriesAt(viewer.user.uId).load(company.companyId);
  }
}

@Resolver(() => DirectoryContact)
@ServiceBoundary(SERVICE)
export class DirectoryContactResolver {
  @FieldResolver(() => [AddressColumns], {
    description: 'Addresses of the contact, when the directory shows them to the caller; batched per request.',
  })
  async addresses(@Root() contact: DirectoryContact, @Ctx() ctx: Context): Promise<AddressColumns[]> {
    return contact.addressesVisible ? ctx.loaders.contactAddresses.load(contact.contactId) : [];
  }
}

/**
 * Federation reference resolver of SmartDirectory, batched per request (one statement for the
 * chain of every representation, one for the directories). Rule, as Query.smartDirectory: a
 * user resolves a directory of a company with the feature enabled, active, of whose team they
 * are a member and in which they hold a contact record with the required consents given;
 * otherwise null, with the error that operation raises. The router's federation token resolves
 * any active directory of an active company with the feature enabled, seeing its contacts as a
 * team admin does; others are null. No credential is WSInvalidAuthTokenException.
 */
export async function resolveSmartDirectoryReference(reference: { directoryUUID: string }, ctx: Context): Promise<SmartDirectory | null> {
  try {
    const viewer = await referenceViewer(ctx);
    const uuid = parseUuid(reference.directoryUUID, 'directoryUUID');
    if (viewer.kind === 'router') {
      if (!(await ctx.loaders.routerDirectories.load(uuid))) return null;
    } else {
      await ctx.loaders.directoryStanding(viewer.user.uId).load(uuid);
    }
    return await ctx.loaders.directoryByUuid.load(uuid);
  } catch (err) {
    if (!(err instanceof ServiceError) && isDependencyFailure(err)) throw new ServiceError(SERVICE, undefined, { cause: err });
    throw err;
  }
}
