// @ServiceBoundary on a resolver class: a dependency failure, thrown or rejected, by a query or by a
// field resolver of a list item, becomes the class's service exception (with the failure as its
// cause); a ServiceError and a plain bug pass unchanged; a middleware the method declares itself
// runs inside the boundary, and an argument failing inside that chain is mapped too; the class's
// other behaviour (its answers, `this`) is unchanged. Also that the type-graphql patch is applied.
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { graphql, type GraphQLSchema } from 'graphql';
import {
  buildSchema,
  createParameterDecorator,
  Field,
  FieldResolver,
  Int,
  ObjectType,
  Query,
  Resolver,
  Root,
  UseMiddleware,
  type MiddlewareFn,
} from 'type-graphql';
import { ServiceBoundary } from '../../src/graphql/service-boundary';
import { ServiceError } from '../../src/core/errors';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

@ObjectType()
class Item {
  @Field(() => Int) id!: number;
}

const seenByMiddleware: unknown[] = [];
const Recorder: MiddlewareFn = async (_data, next) => {
  try {
    return await next();
  } catch (err) {
    seenByMiddleware.push(err);
    throw err;
  }
};

/** An argument type-graphql resolves before the method, whose store does not answer (as an Upload's staging). */
const Staged = () => createParameterDecorator(() => Promise.reject(refused()));

@Resolver(() => Item)
@ServiceBoundary('WSDiscoverableServiceException')
class ItemResolver {
  private readonly prefix = 'item';

  @Query(() => [Item])
  items(): Item[] {
    return [{ id: 1 }, { id: 2 }];
  }

  @Query(() => Int)
  syncDown(): number {
    throw refused();
  }

  @Query(() => Int)
  async asyncDown(): Promise<number> {
    await Promise.resolve();
    throw refused();
  }

  @Query(() => Int)
  refusedInput(): number {
    throw new ServiceError('WSInvalidParameterException', 'Bad id.', { field: 'id' });
  }

  @Query(() => Int)
  async bug(): Promise<number> {
    throw new TypeError('x is undefined');
  }

  @Query(() => Int)
  @UseMiddleware(Recorder)
  async recorded(): Promise<number> {
    throw refused();
  }

  @Query(() => Int)
  @UseMiddleware(Recorder)
  staged(@Staged() value: number): number {
    return value;
  }

  @FieldResolver(() => String)
  label(@Root() item: Item): string {
    return `${this.prefix} ${item.id}`;
  }

  @FieldResolver(() => Int, { nullable: true })
  async stock(@Root() item: Item): Promise<number> {
    if (item.id === 2) throw refused();
    return 10 * item.id;
  }
}

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildSchema({ resolvers: [ItemResolver], emitSchemaFile: false, validate: false });
});

const run = async (query: string) => {
  const result = await graphql({ schema, source: query });
  return {
    data: result.data,
    errors: result.errors?.map((e) => ({
      path: e.path,
      message: e.message,
      code: e.extensions.errorCode,
      cause: (e.originalError as ServiceError | undefined)?.originalError,
    })),
  };
};

describe('@ServiceBoundary', () => {
  it('maps a thrown and a rejected dependency failure to the class service exception, with the failure as its cause', async () => {
    const sync = await run('{ syncDown }');
    const rejected = await run('{ asyncDown }');
    for (const [answer, path] of [
      [sync, 'syncDown'],
      [rejected, 'asyncDown'],
    ] as const) {
      expect(answer.data).toBeNull();
      expect(answer.errors).toEqual([
        {
          path: [path],
          message: expect.any(String),
          code: 'WSDiscoverableServiceException',
          cause: expect.objectContaining({ code: 'ECONNREFUSED' }),
        },
      ]);
    }
  });

  it("maps a list item's field resolver failure at that item only; the other items and fields answer", async () => {
    const answer = await run('{ items { id label stock } }');
    expect(answer.data).toEqual({
      items: [
        { id: 1, label: 'item 1', stock: 10 },
        { id: 2, label: 'item 2', stock: null },
      ],
    });
    expect(answer.errors).toEqual([
      { path: ['items', 1, 'stock'], message: expect.any(String), code: 'WSDiscoverableServiceException', cause: expect.any(Error) },
    ]);
  });

  it('passes a ServiceError and an error that is not a dependency failure unchanged', async () => {
    expect((await run('{ refusedInput }')).errors).toEqual([
      { path: ['refusedInput'], message: 'Bad id.', code: 'WSInvalidParameterException', cause: undefined },
    ]);
    const bug = await run('{ bug }');
    expect(bug.errors).toEqual([{ path: ['bug'], message: 'x is undefined', code: undefined, cause: undefined }]);
  });

  it("runs around the method's own middlewares, which see the failure as thrown; what comes out is mapped", async () => {
    seenByMiddleware.length = 0;
    expect((await run('{ recorded }')).errors?.map((e) => e.code)).toEqual(['WSDiscoverableServiceException']);
    expect(seenByMiddleware).toHaveLength(1);
    expect(seenByMiddleware[0]).not.toBeInstanceOf(ServiceError);
    expect((seenByMiddleware[0] as { code: string }).code).toBe('ECONNREFUSED');
  });

  it("covers the arguments type-graphql resolves inside a method's middleware chain (an Upload's staging store)", async () => {
    seenByMiddleware.length = 0;
    expect((await run('{ staged }')).errors).toEqual([
      {
        path: ['staged'],
        message: expect.any(String),
        code: 'WSDiscoverableServiceException',
        cause: expect.objectContaining({ code: 'ECONNREFUSED' }),
      },
    ]);
    expect(seenByMiddleware).toHaveLength(1);
  });
});

describe('type-graphql, patched (patches/type-graphql+2.0.0-rc.4.patch)', () => {
  it("sorts a resolver's parameter list once, not on every call (npm ci's postinstall applied the patch)", () => {
    // The module the service loads (CommonJS); the patch changes its ESM twin the same way.
    const helpers = path.join(path.dirname(require.resolve('type-graphql')), 'resolvers', 'helpers.js');
    const source = fs.readFileSync(helpers, 'utf8');
    expect(source).toContain('const paramValues = sortParams(params)');
    expect(source).not.toContain('.sort((a, b) => a.index - b.index)\n        .map(');
  });
});
