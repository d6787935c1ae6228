// What an entry holds: its files (OUF original, THMB tile) and its URL links.
import { Entity, PrimaryKey, Property, ManyToOne, Unique, Index, Enum } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp, type Opt, type Rel } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';
import { StoredBlob } from '../storage';
import { SmartEntry, SmartLibrary } from './library.entity';
import { LIMITS, atMost } from './library.limits';

export type SmartFileType = 'OUF' | 'THMB';

@ObjectType({
  implements: Node,
  description: 'A file of a smart entry: OUF (the original) or THMB (its tile image).',
  simpleResolvers: true,
})
@Entity({ tableName: 'smart_file' })
// The same uploaded content twice in one library is refused (WSDuplicateSmartFileException).
@Unique({ properties: ['library', 'dedupeMd5'] })
export class SmartFile {
  [PrimaryKeyProp]?: 'smartFileId';

  @Field(() => Int, { description: 'Id of the file.' }) @PrimaryKey() smartFileId!: number;

  @ManyToOne(() => SmartEntry, { fieldName: 'smart_entry_id', deleteRule: 'cascade' }) @Index() entry!: Rel<SmartEntry>;

  @ManyToOne(() => SmartLibrary, { fieldName: 'smart_lib_id', deleteRule: 'cascade' }) library!: Rel<SmartLibrary>;

  @Field({ description: 'OUF (original uploaded file) or THMB (tile image).' })
  @Enum({ items: ['OUF', 'THMB'], nativeEnumName: undefined })
  smartFileType!: SmartFileType;

  @Field({ description: 'File name.' }) @Property({ length: LIMITS.filename }) smartFileName!: string;

  @Field(() => Int, { description: 'Size in bytes.' }) @Property() smartFileBytes!: number;

  @Field({ description: 'MD5 of the content, hex.' }) @Property({ length: 32 }) smartFileMd5!: string;

  @Field({ description: 'MIME type, detected from the content.' }) @Property({ length: 100 }) mimeType!: string;

  @ManyToOne(() => StoredBlob, { fieldName: 'blob_sha256' }) @Index() blob!: Rel<StoredBlob>;

  /** The MD5 of uploaded originals only (null otherwise): what "the same file" means. */
  @Property({ length: 32, nullable: true }) dedupeMd5?: string | null;

  @Field(() => Date, { description: 'When the file was stored.' })
  @Property({ defaultRaw: 'now()' })
  smartFileCreated: Date & Opt = new Date();

  @Field(() => Date, { description: 'When the file was last replaced.' })
  @Property({ defaultRaw: 'now()' })
  smartFileModified: Date & Opt = new Date();
}

@ObjectType({ description: 'A named link of a smart entry.', simpleResolvers: true })
@Entity({ tableName: 'smart_entry_url' })
export class SmartEntryUrl {
  [PrimaryKeyProp]?: 'smartEntryUrlId';

  @Field(() => Int, { description: 'Id of the link.' }) @PrimaryKey() smartEntryUrlId!: number;

  @ManyToOne(() => SmartEntry, { fieldName: 'smart_entry_id', deleteRule: 'cascade' }) @Index() entry!: Rel<SmartEntry>;

  @Field(() => String, { nullable: true, description: `Display name of the link. ${atMost('urlName')}` })
  @Property({ length: LIMITS.urlName, nullable: true })
  smartEntryUrlName?: string | null;

  @Field({ description: `The http or https URL. ${atMost('url')}` }) @Property({ length: LIMITS.url }) smartEntryUrlValue!: string;

  /** Order as given at creation. */
  @Property() position!: number;
}
