// Smart directories of a company, linked to a team; each team member may hold one contact
// record per directory, and a record holds at most one address per typeCode, each possibly
// copied from (and linked to) one of the user's own addresses.
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp, type Opt, type Rel } from '@mikro-orm/core';
import { Directive, Field, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';
import { Company } from '../company';
import { Team } from '../team';
import { User } from '../user';
import { FieldDefinition } from '../reference-data';
import { AddressColumns, UserAddress } from '../address';

export const DIRECTORY_TYPES = ['UNRESTRICTED', 'PARTIALLY_RESTRICTED', 'FULLY_RESTRICTED'] as const;
export type DirectoryType = (typeof DIRECTORY_TYPES)[number];
export const DIRECTORY_ORDERS = ['FL', 'LF'] as const;
export type DirectoryOrder = (typeof DIRECTORY_ORDERS)[number];

@Directive('@key(fields: "directoryUUID")')
@ObjectType({
  implements: Node,
  simpleResolvers: true,
  description: 'A smart directory of a company, whose contacts are the members of one team. A federation entity keyed by directoryUUID.',
})
@Entity({ tableName: 'smart_directory' })
export class SmartDirectory {
  [PrimaryKeyProp]?: 'directoryUUID';

  @Field({ description: 'Id of the directory (a UUID).' }) @PrimaryKey({ type: 'uuid' }) directoryUUID!: string;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) @Index() company!: Rel<Company>;

  @ManyToOne(() => Team, { fieldName: 'team_id', deleteRule: 'cascade' }) @Index() team!: Rel<Team>;

  @Field({ description: 'Display name of the directory.' }) @Property({ length: 255 }) directoryName!: string;

  @Field(() => String, {
    description: 'UNRESTRICTED, PARTIALLY_RESTRICTED or FULLY_RESTRICTED: who sees which contacts (see docs/api/directory.md).',
  })
  @Enum({ items: [...DIRECTORY_TYPES], nativeEnumName: undefined })
  directoryType!: DirectoryType;

  @Field(() => String, { description: 'FL (first name, last name) or LF (last name, first name): how contacts are named and sorted.' })
  @Enum({ items: [...DIRECTORY_ORDERS], nativeEnumName: undefined })
  directoryOrder!: DirectoryOrder;

  @Field(() => Boolean, {
    description:
      'Sync Up: a change to a contact address copied from a profile address is written back to that address and its other copies.',
  })
  @Property({ default: false })
  syncUp: boolean & Opt = false;

  @Field(() => Boolean, { description: "Whether contact records are filled from the member's profile when created." })
  @Property({ default: false })
  autoPopulateFromProfile: boolean & Opt = false;

  @Field(() => Boolean, { description: 'An inactive directory refuses every contact operation.' })
  @Property({ default: true })
  active: boolean & Opt = true;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/** The field definitions a directory shows (directoryFieldIds). */
@Entity({ tableName: 'smart_directory_field' })
export class SmartDirectoryField {
  [PrimaryKeyProp]?: ['directory', 'field'];

  @ManyToOne(() => SmartDirectory, { primary: true, fieldName: 'directory_uuid', deleteRule: 'cascade' }) directory!: Rel<SmartDirectory>;

  @ManyToOne(() => FieldDefinition, { primary: true, fieldName: 'field_id' }) field!: Rel<FieldDefinition>;
}

/** A team member's entry in a directory: at most one per user and directory. */
@Entity({ tableName: 'contact_record' })
@Unique({ properties: ['directory', 'user'] })
export class ContactRecord {
  [PrimaryKeyProp]?: 'contactId';

  @PrimaryKey() contactId!: number;

  @ManyToOne(() => SmartDirectory, { fieldName: 'directory_uuid', deleteRule: 'cascade' }) directory!: Rel<SmartDirectory>;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) @Index() user!: Rel<User>;

  @Property({ length: 100, nullable: true }) firstName?: string | null;

  @Property({ length: 100, nullable: true }) lastName?: string | null;

  @Property({ length: 255, nullable: true }) email?: string | null;

  @Property({ length: 30, nullable: true }) mobile?: string | null;

  @Property({ length: 30, nullable: true }) phone?: string | null;

  @Property({ length: 50, nullable: true }) jobTitle?: string | null;

  @Property({ length: 50, nullable: true }) department?: string | null;

  @Property({ length: 50, nullable: true }) division?: string | null;

  @Property({ type: 'date', nullable: true }) dateOfBirth?: string | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/**
 * An address of a contact record. The two unique constraints are the rules themselves, so
 * concurrent requests cannot break them: one address per typeCode per record
 * (WSAddressAlreadyFullException), one copy of a given user address per record
 * (WSAlreadyExistsException). Deleting the user address keeps the copy, unlinked.
 */
@Entity({ tableName: 'contact_address' })
@Unique({ name: 'contact_address_type_unique', properties: ['contactRecord', 'typeCode'] })
@Unique({ name: 'contact_address_source_unique', properties: ['contactRecord', 'userAddress'] })
export class ContactAddress extends AddressColumns {
  [PrimaryKeyProp]?: 'uuid';

  @ManyToOne(() => ContactRecord, { fieldName: 'contact_id', deleteRule: 'cascade' }) contactRecord!: Rel<ContactRecord>;

  @ManyToOne(() => UserAddress, { fieldName: 'user_address_uuid', nullable: true, deleteRule: 'set null' })
  @Index()
  userAddress?: Rel<UserAddress> | null;
}
