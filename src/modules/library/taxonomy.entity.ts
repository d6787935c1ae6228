// How a library classifies its entries: tags (created on use), folders, filters and categories
// (kept by the library; unknown ones are left out of an entry). Names are unique per library
// regardless of case (nameKey). Each link table keeps the order the entry gave.
import { Entity, PrimaryKey, Property, ManyToOne, Unique } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp, type Rel } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { SmartEntry, SmartLibrary } from './library.entity';
import { LIMITS, atMost } from './library.limits';

@ObjectType({ description: 'A tag of a smart library.', simpleResolvers: true })
@Entity({ tableName: 'smart_tag' })
@Unique({ properties: ['library', 'nameKey'] })
export class SmartTag {
  [PrimaryKeyProp]?: 'smartTagId';

  @Field(() => Int, { description: 'Id of the tag.' }) @PrimaryKey() smartTagId!: number;

  @ManyToOne(() => SmartLibrary, { fieldName: 'smart_lib_id', deleteRule: 'cascade' }) library!: Rel<SmartLibrary>;

  @Field({ description: `Name of the tag. ${atMost('tagName')}` }) @Property({ length: LIMITS.tagName }) smartTagName!: string;

  /** The name trimmed and lower-cased: what "the same name" means. */
  @Property({ length: LIMITS.tagName }) nameKey!: string;
}

@ObjectType({ description: 'A folder of a smart library.', simpleResolvers: true })
@Entity({ tableName: 'smart_folder' })
@Unique({ properties: ['library', 'nameKey'] })
export class SmartFolder {
  [PrimaryKeyProp]?: 'smartFolderId';

  @Field(() => Int, { description: 'Id of the folder.' }) @PrimaryKey() smartFolderId!: number;

  @ManyToOne(() => SmartLibrary, { fieldName: 'smart_lib_id', deleteRule: 'cascade' }) library!: Rel<SmartLibrary>;

  @Field({ description: `Name of the folder. ${atMost('folderName')}` }) @Property({ length: LIMITS.folderName }) smartFolderName!: string;

  /** The name trimmed and lower-cased: what "the same name" means. */
  @Property({ length: LIMITS.folderName }) nameKey!: string;
}

@ObjectType({ description: 'A filter of a smart library.', simpleResolvers: true })
@Entity({ tableName: 'smart_filter' })
@Unique({ properties: ['library', 'nameKey'] })
export class SmartFilter {
  [PrimaryKeyProp]?: 'smartFilterId';

  @Field(() => Int, { description: 'Id of the filter.' }) @PrimaryKey() smartFilterId!: number;

  @ManyToOne(() => SmartLibrary, { fieldName: 'smart_lib_id', deleteRule: 'cascade' }) library!: Rel<SmartLibrary>;

  @Field({ description: `Name of the filter. ${atMost('filterName')}` }) @Property({ length: LIMITS.filterName }) smartFilterName!: string;

  /** The name trimmed and lower-cased: what "the same name" means. */
  @Property({ length: LIMITS.filterName }) nameKey!: string;
}

@ObjectType({ description: 'A category of a smart library.', simpleResolvers: true })
@Entity({ tableName: 'smart_category' })
@Unique({ properties: ['library', 'nameKey'] })
export class SmartCategory {
  [PrimaryKeyProp]?: 'smartCategoryId';

  @Field(() => Int, { description: 'Id of the category.' }) @PrimaryKey() smartCategoryId!: number;

  @ManyToOne(() => SmartLibrary, { fieldName: 'smart_lib_id', deleteRule: 'cascade' }) library!: Rel<SmartLibrary>;

  @Field({ description: `Name of the category. ${atMost('categoryName')}` })
  @Property({ length: LIMITS.categoryName })
  smartCategoryName!: string;

  /** The name trimmed and lower-cased: what "the same name" means. */
  @Property({ length: LIMITS.categoryName }) nameKey!: string;
}

@Entity({ tableName: 'smart_entry_tag' })
export class SmartEntryTag {
  [PrimaryKeyProp]?: ['entry', 'tag'];

  @ManyToOne(() => SmartEntry, { primary: true, fieldName: 'smart_entry_id', deleteRule: 'cascade' }) entry!: Rel<SmartEntry>;

  @ManyToOne(() => SmartTag, { primary: true, fieldName: 'smart_tag_id', deleteRule: 'cascade' }) tag!: Rel<SmartTag>;

  @Property() position!: number;
}

@Entity({ tableName: 'smart_entry_folder' })
export class SmartEntryFolder {
  [PrimaryKeyProp]?: ['entry', 'folder'];

  @ManyToOne(() => SmartEntry, { primary: true, fieldName: 'smart_entry_id', deleteRule: 'cascade' }) entry!: Rel<SmartEntry>;

  @ManyToOne(() => SmartFolder, { primary: true, fieldName: 'smart_folder_id', deleteRule: 'cascade' }) folder!: Rel<SmartFolder>;

  @Property() position!: number;
}

@Entity({ tableName: 'smart_entry_filter' })
export class SmartEntryFilter {
  [PrimaryKeyProp]?: ['entry', 'filter'];

  @ManyToOne(() => SmartEntry, { primary: true, fieldName: 'smart_entry_id', deleteRule: 'cascade' }) entry!: Rel<SmartEntry>;

  @ManyToOne(() => SmartFilter, { primary: true, fieldName: 'smart_filter_id', deleteRule: 'cascade' }) filter!: Rel<SmartFilter>;

  @Property() position!: number;
}

@Entity({ tableName: 'smart_entry_category' })
export class SmartEntryCategory {
  [PrimaryKeyProp]?: ['entry', 'category'];

  @ManyToOne(() => SmartEntry, { primary: true, fieldName: 'smart_entry_id', deleteRule: 'cascade' }) entry!: Rel<SmartEntry>;

  @ManyToOne(() => SmartCategory, { primary: true, fieldName: 'smart_category_id', deleteRule: 'cascade' }) category!: Rel<SmartCategory>;

  @Property() position!: number;
}
