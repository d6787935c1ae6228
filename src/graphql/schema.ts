// Builds the type-graphql schema and serves it as an Apollo Federation 2 subgraph:
// the type-graphql schema is printed with its directives and fed to buildSubgraphSchema,
// with type-graphql's resolvers and each entity's reference resolver.
import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives, type IResolvers } from '@graphql-tools/utils';
import { type GraphQLSchema, parse } from 'graphql';
import { buildSchema, createResolversMap, type NonEmptyArray } from 'type-graphql';
import { Timestamp } from './scalars';
import { describeRules, validateArgument } from './rules';
import { CompanyResolver, resolveCompanyReference } from '../modules/company/company.resolver';
import { ConnectionResolver } from '../modules/company/connection.resolver';
import { DiscoveryResolver } from '../modules/discovery/discovery.resolver';
import { MembershipResolver } from '../modules/membership/membership.resolver';
import { ReferenceDataResolver, AssessmentFormResolver } from '../modules/reference-data/reference-data.resolver';
import { UserProfileResolver, UserReferenceDataResolver, resolveUserReference } from '../modules/user/user.resolver';
import { AddressResolver, UserAddressResolver } from '../modules/address/address.resolver';
import { ConsentResolver } from '../modules/consent/consent.resolver';
import { SmartDirectoryResolver, DirectoryContactResolver, resolveSmartDirectoryReference } from '../modules/directory/directory.resolver';
import { EventResolver, resolveEventReference } from '../modules/event/event.resolver';
import { NotificationResolver } from '../modules/notification/notification.resolver';
import { IdentityResolver } from '../modules/identity/identity.resolver';
import { LibraryResolver, IngestionResolver } from '../modules/library/library.resolver';
import { SmartLibraryFieldsResolver, SmartEntryFieldsResolver, SmartFileFieldsResolver } from '../modules/library/entry.resolver';
import { resolveSmartEntryReference, resolveSmartLibraryReference } from '../modules/library/library.reference';
import { SupportGroupResolver } from '../modules/support-group/support-group.resolver';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const RESOLVERS: NonEmptyArray<Function> = [LibraryResolver, IngestionResolver, SmartLibraryFieldsResolver, SmartEntryFieldsResolver, SmartFileFieldsResolver, IdentityResolver, ReferenceDataResolver, AssessmentFormResolver, UserProfileResolver, UserReferenceDataResolver, AddressResolver, UserAddressResolver, ConsentResolver, SmartDirectoryResolver, DirectoryContactResolver, EventResolver, NotificationResolver, CompanyResolver, ConnectionResolver, DiscoveryResolver, MembershipResolver, SupportGroupResolver];

/** __resolveReference per federation entity; each module adds its own as entities land. */
const REFERENCE_RESOLVERS: IResolvers = {
  SmartEntry: { __resolveReference: resolveSmartEntryReference },
  SmartLibrary: { __resolveReference: resolveSmartLibraryReference },
  Company: { __resolveReference: resolveCompanyReference },
  User: { __resolveReference: resolveUserReference },
  SmartDirectory: { __resolveReference: resolveSmartDirectoryReference },
  Event: { __resolveReference: resolveEventReference },
};

const FEDERATION_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable"])';

let cached: GraphQLSchema | undefined;

export async function createSchema(): Promise<GraphQLSchema> {
  if (cached) return cached;
  describeRules();
  const base = await buildSchema({
    resolvers: RESOLVERS,
    scalarsMap: [{ type: Date, scalar: Timestamp }],
    // Every argument passes the declared field rules (rules.ts), for /graphql and REST alike.
    validateFn: validateArgument,
    emitSchemaFile: false,
    skipCheck: true,
  });
  const typeDefs = parse(`${FEDERATION_LINK}\n\n${printSchemaWithDirectives(base)}`);
  const resolvers = createResolversMap(base) as IResolvers;
  for (const [type, fields] of Object.entries(REFERENCE_RESOLVERS)) {
    resolvers[type] = { ...(resolvers[type] as object), ...(fields as object) };
  }
  cached = buildSubgraphSchema([{ typeDefs, resolvers: resolvers as any }]);
  return cached;
}
