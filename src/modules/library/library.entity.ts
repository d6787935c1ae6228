// Smart libraries of a company (optionally of one of its teams), their publishers, and their
// entries. Entities double as GraphQL object types; names follow the specification's fields.
import { Entity, PrimaryKey, Property, ManyToOne, Unique, Index } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp, type Opt, type Rel } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';
import { Company } from '../company';
import { Team } from '../team';
import { User } from '../user';
import { LIMITS, atMost } from './library.limits';

/** Entries a library may hold unless configured otherwise (WSLimitExceededException beyond). */
export const DEFAULT_MAX_ENTRIES = 10_000;

@ObjectType({
  implements: Node,
  description: 'A smart library: the shared shelf of entries of a company, or of one of its teams.',
  simpleResolvers: true,
})
@Directive('@key(fields: "smartLibId")')
@Entity({ tableName: 'smart_library' })
export class SmartLibrary {
  [PrimaryKeyProp]?: 'smartLibId';

  @Field(() => Int, { description: 'Id of the library.' }) @PrimaryKey() smartLibId!: number;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) @Index() company!: Rel<Company>;

  @ManyToOne(() => Team, { fieldName: 'team_id', nullable: true, deleteRule: 'set null' }) team?: Rel<Team> | null;

  @Field({ description: 'Name of the library.' }) @Property({ length: 255 }) smartLibName!: string;

  @Field(() => Int, { description: 'Most entries the library may hold.' })
  @Property({ default: DEFAULT_MAX_ENTRIES })
  maxEntries: number & Opt = DEFAULT_MAX_ENTRIES;

  @Field(() => Date, { description: 'When the library was created.' })
  @Property({ defaultRaw: 'now()' })
  smartLibCreated: Date & Opt = new Date();

  /** How many entries the library holds: kept by the triggers of SmartEntry, read by
   * createSmartEntry under the library's row lock; the service never writes it. */
  @Property({ default: 0 })
  entryCount: number & Opt = 0;
}

/** The library publisher role: the user may create entries in the library. */
@Entity({ tableName: 'smart_library_publisher' })
@Unique({ properties: ['library', 'user'] })
export class SmartLibraryPublisher {
  @PrimaryKey() id!: number;

  @ManyToOne(() => SmartLibrary, { fieldName: 'smart_lib_id', deleteRule: 'cascade' }) library!: Rel<SmartLibrary>;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) @Index() user!: Rel<User>;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

@ObjectType({
  implements: Node,
  description: 'An entry of a smart library: an uploaded file or a URL, with its files, links and classification.',
  simpleResolvers: true,
})
@Directive('@key(fields: "smartEntryId")')
@Entity({
  tableName: 'smart_entry',
  // The library's entryCount follows every statement that adds, removes or moves entries (cascades
  // included), so createSmartEntry reads the count instead of counting the library's entries. Not a
  // TRUNCATE: information_schema does not show such triggers, so MikroORM's schema diff could not
  // keep one; nothing truncates smart_entry (after a manual one, set the counts to 0).
  triggers: [
    {
      name: 'smart_entry_count_insert',
      timing: 'after',
      events: ['insert'],
      forEach: 'row',
      body: `update "smart_library" set "entry_count" = "entry_count" + 1 where "smart_lib_id" = new."smart_lib_id"; return null;`,
    },
    {
      name: 'smart_entry_count_delete',
      timing: 'after',
      events: ['delete'],
      forEach: 'row',
      body: `update "smart_library" set "entry_count" = "entry_count" - 1 where "smart_lib_id" = old."smart_lib_id"; return null;`,
    },
    {
      name: 'smart_entry_count_move',
      timing: 'after',
      events: ['update'],
      forEach: 'row',
      // As PostgreSQL prints it back, so the schema diff sees no change.
      when: '(old.smart_lib_id IS DISTINCT FROM new.smart_lib_id)',
      body:
        `update "smart_library" set "entry_count" = "entry_count" + (case when "smart_lib_id" = new."smart_lib_id" then 1 else -1 end)` +
        ` where "smart_lib_id" in (old."smart_lib_id", new."smart_lib_id"); return null;`,
    },
  ],
})
@Unique({ properties: ['library', 'nameKey'] })
@Index({ properties: ['library', 'smartEntryCreated'] })
export class SmartEntry {
  [PrimaryKeyProp]?: 'smartEntryId';

  @Field(() => Int, { description: 'Id of the entry.' }) @PrimaryKey() smartEntryId!: number;

  @ManyToOne(() => SmartLibrary, { fieldName: 'smart_lib_id', deleteRule: 'cascade' }) library!: Rel<SmartLibrary>;

  @Field(() => String, { description: 'Status of the entry: A (active).' })
  @Property({ length: 1, default: 'A' })
  smartEntryStatus: string & Opt = 'A';

  @Field({ description: 'Type of the entry: URL, IMG, PDF, DOC, VID or AUD.' }) @Property({ length: 10 }) smartEntryType!: string;

  @Field({ description: `Name of the entry, unique in its library regardless of case. ${atMost('entryName')}` })
  @Property({ length: LIMITS.entryName })
  smartEntryName!: string;

  /** The name trimmed and lower-cased: what "the same name" means. */
  @Property({ length: LIMITS.entryName }) nameKey!: string;

  @Field(() => String, { nullable: true, description: `Description. ${atMost('entryDesc')}` })
  @Property({ length: LIMITS.entryDesc, nullable: true })
  smartEntryDesc?: string | null;

  @Field(() => String, { description: 'Y when readers may download the original file, else N.' })
  @Property({ length: 1, default: 'N' })
  smartEntryDownloadOrig: string & Opt = 'N';

  @Field(() => String, { description: 'Y when readers may download a PDF rendition, else N.' })
  @Property({ length: 1, default: 'N' })
  smartEntryDownloadPdf: string & Opt = 'N';

  @Field(() => String, {
    nullable: true,
    description: 'Y or N on file entries: whether readers are warned before following links to external sites; null on URL entries.',
  })
  @Property({ length: 1, nullable: true })
  notifyUserOfExternalUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'The link of a URL entry; null on file entries.' })
  @Property({ length: LIMITS.url, nullable: true })
  smartEntryUrlLink?: string | null;

  @Field(() => String, { nullable: true, description: `Authors, as free text. ${atMost('entryAuthors')}` })
  @Property({ length: LIMITS.entryAuthors, nullable: true })
  smartEntryAuthors?: string | null;

  @Field(() => Date, { description: 'When the entry was created.' })
  @Property({ defaultRaw: 'now()' })
  smartEntryCreated: Date & Opt = new Date();

  @Field(() => Date, { description: 'When the entry was last changed.' })
  @Property({ defaultRaw: 'now()' })
  smartEntryModified: Date & Opt = new Date();

  @Field(() => Int, { description: "Version of the entry's metadata, from 1." })
  @Property({ default: 1 })
  smartEntryMetadataVersion: number & Opt = 1;

  @Field(() => Int, { description: "Version of the entry's file, from 1." })
  @Property({ default: 1 })
  smartEntryFileVersion: number & Opt = 1;

  @Field(() => Int, { description: 'How many times the AI ingestion process failed on this entry.' })
  @Property({ default: 0 })
  aiIngestionFailures: number & Opt = 0;

  @Field(() => String, { nullable: true, description: 'The error of the latest AI ingestion failure.' })
  @Property({ type: 'text', nullable: true })
  aiIngestionError?: string | null;

  @ManyToOne(() => User, { fieldName: 'created_by', nullable: true, deleteRule: 'set null' }) createdBy?: Rel<User> | null;
}
