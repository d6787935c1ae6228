// Builds the type-graphql schema and serves it as an Apollo Federation 2 subgraph:
// the type-graphql schema is printed with its directives and fed to buildSubgraphSchema,
// with type-graphql's resolvers and each entity's reference resolver.
import 'reflect-metadata';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives, type IResolvers } from '@graphql-tools/utils';
import { type GraphQLSchema, parse } from 'graphql';
import { buildSchema, createResolversMap, type NonEmptyArray } from 'type-graphql';
import { Timestamp } from './scalars';
import { ReferenceDataResolver, AssessmentFormResolver } from '../modules/reference-data/reference-data.resolver';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const RESOLVERS: NonEmptyArray<Function> = [ReferenceDataResolver, AssessmentFormResolver];

/** __resolveReference per federation entity; each module adds its own as entities land. */
const REFERENCE_RESOLVERS: IResolvers = {};

const FEDERATION_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable"])';

let cached: GraphQLSchema | undefined;

export async function createSchema(): Promise<GraphQLSchema> {
  if (cached) return cached;
  const base = await buildSchema({
    resolvers: RESOLVERS,
    scalarsMap: [{ type: Date, scalar: Timestamp }],
    validate: false,
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
