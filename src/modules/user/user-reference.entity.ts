// Titles and genders a profile refers to by id/code (uTitleId, uGenderCode). System rows are
// inserted by the migration that creates the tables, like the directory field definitions.
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A title (Mr, Dr, ...) a profile can carry.', simpleResolvers: true })
@Entity({ tableName: 'title' })
export class Title {
  [PrimaryKeyProp]?: 'titleId';

  @Field(() => Int, { description: 'Id of the title, as used in uTitleId.' }) @PrimaryKey({ autoincrement: false }) titleId!: number;

  @Field({ description: 'Display name of the title.' }) @Property({ length: 50 }) titleName!: string;
}

@ObjectType({ description: 'A gender a profile can carry.', simpleResolvers: true })
@Entity({ tableName: 'gender' })
export class Gender {
  [PrimaryKeyProp]?: 'genderCode';

  @Field({ description: 'Single-letter code, as used in uGenderCode.' }) @PrimaryKey({ length: 1 }) genderCode!: string;

  @Field({ description: 'Display name of the gender.' }) @Property({ length: 50 }) genderName!: string;
}
