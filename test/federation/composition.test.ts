// The subgraph composes beside another team's Relay subgraph (@apollo/composition, the version
// @apollo/gateway and deploy/router/supergraph.yaml's federation_version use): that subgraph has its
// own PageInfo, its own connections, and references our User and Company by their keys. Both
// PageInfos are @shareable (src/graphql/connection.ts), as Federation 2 asks of a value type two
// subgraphs resolve; and the supergraph configuration rover composes for the router composes too.
// This subgraph is its committed SDL (schema/schema.graphql), as rover composes it.
import fs from 'node:fs';
import path from 'node:path';
import { composeServices, type CompositionResult } from '@apollo/composition';
import { type GraphQLObjectType, type GraphQLSchema, Kind, parse, print, type ObjectTypeDefinitionNode } from 'graphql';
import { parse as parseYaml } from 'yaml';

const ROOT = path.join(__dirname, '../..');

/** A "reviews" subgraph of another team: Relay connections of its own, our entities by key only. */
function reviewsSubgraph(pageInfoDirectives: string): string {
  return `
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable"])
    type PageInfo ${pageInfoDirectives} {
      hasNextPage: Boolean!
      hasPreviousPage: Boolean!
      startCursor: String
      endCursor: String
    }
    type User @key(fields: "uId", resolvable: false) { uId: Int! }
    type Company @key(fields: "companyId", resolvable: false) { companyId: Int! }
    type Review { reviewId: ID! author: User! company: Company! text: String! }
    type ReviewEdge { cursor: String! node: Review! }
    type ReviewConnection { edges: [ReviewEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type Query { reviews(first: Int, after: String): ReviewConnection! }
  `;
}

// This subgraph's SDL as rover composes it: the committed print of the schema, which
// test/foundation/contract.test.ts keeps equal to what `_service { sdl }` answers.
const ours = fs.readFileSync(path.join(ROOT, 'schema/schema.graphql'), 'utf8');

function compose(other: string): CompositionResult {
  return composeServices([
    { name: 'pronet', url: 'http://pronet.internal/graphql', typeDefs: parse(ours) },
    { name: 'reviews', url: 'http://reviews.internal/graphql', typeDefs: parse(other) },
  ]);
}

function apiSchema(result: CompositionResult): GraphQLSchema {
  if (result.errors) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.schema.toAPISchema().toGraphQLJSSchema();
}

/** The subgraphs (join__Graph values) that resolve a type, from its @join__type directives. */
function joinedGraphs(supergraphSdl: string, typeName: string): string[] {
  const def = parse(supergraphSdl).definitions.find(
    (d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === typeName,
  );
  return (def?.directives ?? [])
    .filter((d) => d.name.value === 'join__type')
    .map((d) => d.arguments?.find((a) => a.name.value === 'graph'))
    .map((a) => (a ? print(a.value) : '?'))
    .sort();
}

const fieldNames = (schema: GraphQLSchema, type: string) => Object.keys((schema.getType(type) as GraphQLObjectType).getFields()).sort();

describe('when another Relay subgraph defines its own shareable PageInfo and references User and Company', () => {
  it('then the two compose, one PageInfo resolved by both', () => {
    const result = compose(reviewsSubgraph('@shareable'));
    expect(result.errors?.map((e) => e.message)).toBeUndefined();
    const schema = apiSchema(result);

    expect(fieldNames(schema, 'PageInfo')).toEqual(['endCursor', 'hasNextPage', 'hasPreviousPage', 'startCursor']);
    expect(joinedGraphs(result.supergraphSdl!, 'PageInfo')).toEqual(['PRONET', 'REVIEWS']);
    // Each subgraph's connections lead to the same PageInfo.
    const pageInfoOf = (connection: string) => (schema.getType(connection) as GraphQLObjectType).getFields().pageInfo.type.toString();
    expect([pageInfoOf('ReviewConnection'), pageInfoOf('CompanyEventConnection')]).toEqual(['PageInfo!', 'PageInfo!']);
  });

  it('then a review leads to our User and Company with all their fields, and both query roots are there', () => {
    const result = compose(reviewsSubgraph('@shareable'));
    const schema = apiSchema(result);
    const review = (schema.getType('Review') as GraphQLObjectType).getFields();
    expect([review.author.type.toString(), review.company.type.toString()]).toEqual(['User!', 'Company!']);
    expect(fieldNames(schema, 'User')).toEqual(expect.arrayContaining(['uId', 'uFirstName', 'addresses']));
    expect(fieldNames(schema, 'Company')).toEqual(expect.arrayContaining(['companyId', 'companyName', 'criteria', 'events']));
    expect(joinedGraphs(result.supergraphSdl!, 'User')).toEqual(['PRONET', 'REVIEWS']);
    expect(joinedGraphs(result.supergraphSdl!, 'Company')).toEqual(['PRONET', 'REVIEWS']);
    expect(fieldNames(schema, 'Query')).toEqual(expect.arrayContaining(['reviews', 'timezones', 'recommendedEntities']));
  });

  it('then, when the other PageInfo is not @shareable, composition fails on their side only', () => {
    const result = compose(reviewsSubgraph(''));
    const errors = (result.errors ?? []).map((e) => ({ code: e.extensions.code, message: e.message }));
    expect(errors).toHaveLength(4);
    for (const e of errors) {
      expect(e.code).toBe('INVALID_FIELD_SHARING');
      expect(e.message).toMatch(
        /^Non-shareable field "PageInfo\.\w+" is resolved from multiple subgraphs: .* defined as non-shareable in subgraph "reviews"$/,
      );
    }
  });
});

describe('deploy/router/supergraph.yaml, the configuration rover composes for the router', () => {
  it('holds this subgraph from its committed SDL, and its subgraphs compose at the pinned federation_version', () => {
    const file = path.join(ROOT, 'deploy/router/supergraph.yaml');
    const config = parseYaml(fs.readFileSync(file, 'utf8')) as {
      federation_version: string;
      subgraphs: Record<string, { routing_url: string; schema: { file?: string } }>;
    };
    const composition = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@apollo/composition/package.json'), 'utf8')) as {
      version: string;
    };
    expect(config.federation_version).toBe(`=${composition.version}`);

    // Subgraphs whose schema is a file (others' may be introspected by rover at their routing URL).
    const services = Object.entries(config.subgraphs)
      .filter(([, s]) => s.schema.file)
      .map(([name, s]) => ({
        name,
        url: s.routing_url,
        typeDefs: parse(fs.readFileSync(path.resolve(path.dirname(file), s.schema.file!), 'utf8')),
      }));
    expect(config.subgraphs.pronet).toEqual({
      routing_url: 'http://balancer:8080/graphql',
      schema: { file: '../../schema/schema.graphql' },
    });
    const result = composeServices(services);
    expect(result.errors?.map((e) => e.message)).toBeUndefined();
    expect(result.supergraphSdl).toContain('PRONET @join__graph(name: "pronet", url: "http://balancer:8080/graphql")');
  });
});
