// Types with simpleResolvers have their plain fields read as `source[schemaName]` by graphql-js;
// checkSimpleFields (run by createSchema) refuses a field that would then read the wrong property.
import 'reflect-metadata';
import { Field, Int, ObjectType, getMetadataStorage } from 'type-graphql';
import { checkSimpleFields, createSchema } from '../../src/graphql/schema';
import { MODULES } from '../../src/modules';

describe('fields read as properties', () => {
  it("accepts every type of the service's schema", async () => {
    await createSchema(MODULES);
    expect(() => checkSimpleFields()).not.toThrow();
  });

  it('refuses a renamed field on a type with simpleResolvers, and accepts it once marked simple: false', async () => {
    await createSchema(MODULES);
    @ObjectType({ simpleResolvers: true })
    class Renamed {
      @Field(() => Int, { name: 'shownAs' }) storedAs!: number;
    }
    @ObjectType({ simpleResolvers: true })
    class Marked {
      @Field(() => Int, { name: 'shownAs', simple: false }) storedAs!: number;
    }
    // type-graphql attaches a type's fields when it builds its metadata; the check reads them there.
    const storage = getMetadataStorage();
    storage.build({ resolvers: [] });
    expect(storage.objectTypes.filter((t) => t.target === Renamed || t.target === Marked).map((t) => t.fields?.[0].schemaName)).toEqual([
      'shownAs',
      'shownAs',
    ]);
    expect(() => checkSimpleFields()).toThrow(
      'Fields read as properties cannot be renamed or carry middlewares or roles (give them simple: false): Renamed.shownAs',
    );
  });
});
