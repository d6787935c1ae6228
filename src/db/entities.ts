// Every entity the ORM knows, in one list: the ORM, the schema check and the migration
// generator all read it. Each module appends its entities.
import { Condition, ReferenceDataVersion, AssessmentForm, AssessmentField, Profession, Specialty, FieldDefinition } from '../modules/reference-data/reference-data.entity';
import { User } from '../modules/user/user.entity';
import { Company, CompanyRole, CompanyApiKey } from '../modules/company/company.entity';
import { Team, TeamMember } from '../modules/team/team.entity';
import { ServiceAuthToken, SystemToken } from '../modules/identity/identity.entity';

export const ENTITIES = [
  Condition, ReferenceDataVersion, AssessmentForm, AssessmentField, Profession, Specialty, FieldDefinition,
  User, Company, CompanyRole, CompanyApiKey, Team, TeamMember, ServiceAuthToken, SystemToken,
];
