// The company module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Companies, their roles and API keys, and the one answer to "which roles does this user hold on the company?" (company.access.ts).
import { defineModule } from '../../core/module';
import { NODE_KEY, nodeFromReference } from '../../graphql/node';
import { Company, CompanyRole, CompanyApiKey } from './company.entity';
import { CompanyResolver, resolveCompanyReference } from './company.resolver';
export { visibleCompany } from './company.resolver';
import { createCompanyLoaders } from './company.loaders';

export const company = defineModule({
  name: 'company',
  entities: [Company, CompanyRole, CompanyApiKey],
  resolvers: [CompanyResolver],
  references: { Company: resolveCompanyReference },
  nodes: { Company: nodeFromReference('companyId', NODE_KEY.int, resolveCompanyReference) },
  loaders: createCompanyLoaders,
  seeders: () => import('./core.seeder.js').then((m) => [m.CoreSeeder]),
});

export { isCompanyAdmin, requireCompanyAdmin, rolesOn } from './company.access';
export { Company, CompanyApiKey, companyAtMost, CompanyRole } from './company.entity';
export { companyDiscoverable } from './company.queries';
export { fileUrl } from './company.urls';
export {
  adminRoleExists,
  companiesVisibleTo,
  companyHas,
  companyNameOf,
  discoverableCompanies,
  discoverableCompanyRows,
  roleExists,
} from './company.queries';
export { visibleCompaniesLoader } from './company.reference';
