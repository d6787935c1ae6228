// Teams of a company and their members. Smart directories are linked to a team, GT
// notifications go to teams, support groups create one.
import { Entity, PrimaryKey, Property, ManyToOne, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { PrimaryKeyProp } from '@mikro-orm/core';
import { Company } from '../company';
import { User } from '../user';

@Entity({ tableName: 'team' })
export class Team {
  [PrimaryKeyProp]?: 'teamId';

  @PrimaryKey() teamId!: number;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) company!: Rel<Company>;

  @Property({ length: 255 }) teamName!: string;

  @Property({ length: 255, nullable: true }) imageKey?: string | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

@Entity({ tableName: 'team_member' })
@Unique({ properties: ['team', 'user'] })
export class TeamMember {
  @PrimaryKey() id!: number;

  @ManyToOne(() => Team, { fieldName: 'team_id', deleteRule: 'cascade' }) team!: Rel<Team>;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) user!: Rel<User>;

  @Property({ default: false }) isTeamAdmin: boolean & Opt = false;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}
