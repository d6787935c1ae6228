// E-consents: what a company, an event or a smart directory asks users to agree to, and what
// each user agreed to. Company and event consents are listed by getEConsents (type C);
// directory consents (type DS) gate the caller's smart directory contact record.
import { Entity, Enum, Index, ManyToOne, OneToMany, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Collection, type Opt, type Rel } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';
import { Company } from '../company';
import { User } from '../user';
import { SmartDirectory } from './directory.entity';

export type ConsentTypeCode = 'C' | 'DS';

@ObjectType('EConsent', {
  implements: Node,
  description: 'A consent a company, an event or a smart directory asks users to give.',
  simpleResolvers: true,
})
@Entity({ tableName: 'consent_definition' })
export class ConsentDefinition {
  @PrimaryKey() id!: number;

  @Field({ description: 'Unique id of the consent (a UUID).' }) @Property({ type: 'uuid', unique: true }) consentUUID!: string;

  @Field(() => String, { description: 'C for company and event consents, DS for smart directory consents.' })
  @Enum({ items: ['C', 'DS'], nativeEnumName: undefined })
  consentTypeCode!: ConsentTypeCode;

  /** Set on company consents. */
  @ManyToOne(() => Company, { fieldName: 'company_id', nullable: true, deleteRule: 'cascade' }) @Index() company?: Rel<Company> | null;

  /** Set on event consents. Events live in another module (and possibly another graph): no foreign key. */
  @Field(() => String, { nullable: true, description: 'UUID of the event, on event consents.' })
  @Property({ type: 'uuid', nullable: true })
  @Index()
  eventUUID?: string | null;

  /** Set on smart directory consents (type DS): the directory requires it when consentRequired. */
  @ManyToOne(() => SmartDirectory, { fieldName: 'directory_uuid', nullable: true, deleteRule: 'cascade' })
  @Index()
  directory?: Rel<SmartDirectory> | null;

  @Field(() => String, {
    name: 'consentName',
    simple: false,
    nullable: true,
    description: 'Short name of the consent (directory consents).',
  })
  @Property({ length: 255, nullable: true })
  name?: string | null;

  @Field({ description: 'The consent text.' }) @Property({ type: 'text' }) consentValue!: string;

  @Field(() => String, {
    name: 'consentOptionalDesc',
    simple: false,
    nullable: true,
    description: 'Text shown when the consent is optional (directory consents).',
  })
  @Property({ type: 'text', nullable: true })
  optionalDesc?: string | null;

  @Field({ description: 'Whether the consent must be given.' }) @Property() consentRequired!: boolean;

  /** Retired consents are no longer listed nor required; what users gave stays recorded. */
  @Property({ default: true }) active: boolean & Opt = true;

  @Property({ default: 0 }) sortOrder: number & Opt = 0;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();

  @OneToMany(() => UserConsent, (answer) => answer.consent)
  answers = new Collection<UserConsent>(this);
}

/** A user's answer to a consent; kept when withdrawn (given=false) so the history of the answer stays. */
@Entity({ tableName: 'user_consent' })
@Unique({ properties: ['user', 'consent'] })
export class UserConsent {
  @PrimaryKey() id!: number;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) user!: Rel<User>;

  @ManyToOne(() => ConsentDefinition, { fieldName: 'consent_id', deleteRule: 'cascade' }) @Index() consent!: Rel<ConsentDefinition>;

  @Property() given!: boolean;

  @Property({ defaultRaw: 'now()' }) updatedAt: Date & Opt = new Date();
}
