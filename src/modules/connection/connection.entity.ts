// A user's connection with a company wall, one row per user and company, and its state:
//   requested  the user asked; a criterion is only partly met (profile data missing)
//   pending    the user asked and fully meets a criterion; awaiting the company's vetting
//   accepted   connected (vetted by an admin, or at once where the company does not vet)
//   rejected   declined by an admin, or the user's profile no longer meets any criterion
// Transitions are in connection.service.ts; docs/api/company-and-connections.md documents them.
import { Entity, PrimaryKey, Property, ManyToOne, Unique, Enum, Index } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { User } from '../user';
import { Company } from '../company';

export const CONNECTION_STATUSES = ['requested', 'pending', 'accepted', 'rejected'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
export type RejectionReason = 'declined' | 'criteria';

@Entity({ tableName: 'company_connection' })
@Unique({ properties: ['user', 'company'] })
@Index({ properties: ['company', 'status'] })
export class CompanyConnection {
  @PrimaryKey() id!: number;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) user!: Rel<User>;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) company!: Rel<Company>;

  @Enum({ items: [...CONNECTION_STATUSES], nativeEnumName: undefined }) status!: ConnectionStatus;

  /** When the user last asked to connect. */
  @Property() requestedAt!: Date;

  /** When the request last entered manual vetting (pending). */
  @Property({ type: 'datetime', nullable: true }) pendingAt?: Date | null;

  @Property({ type: 'datetime', nullable: true }) acceptedAt?: Date | null;

  @Property({ type: 'datetime', nullable: true }) rejectedAt?: Date | null;

  @Enum({ items: ['declined', 'criteria'], nullable: true, nativeEnumName: undefined }) rejectionReason?: RejectionReason | null;

  /** The company admin who approved or declined; null for automatic transitions. */
  @ManyToOne(() => User, { fieldName: 'decided_by_user_id', nullable: true, deleteRule: 'set null' }) decidedBy?: Rel<User> | null;

  @Property({ defaultRaw: 'now()', onUpdate: () => new Date() }) updatedAt: Date & Opt = new Date();
}
