// The demo tenant the seed writes (src/db/demo.ts), under the names tests use. A literal id in a
// test is then either one of these or an id whose value is the point (one that does not exist).
import { demo } from './src';

export const DEMO = {
  users: demo.DEMO_USERS,
  companies: demo.DEMO_COMPANIES,
  password: demo.DEMO_PASSWORD,
  companyApiKey: demo.DEMO_COMPANY_API_KEY,
  inactiveCompanyApiKey: demo.DEMO_INACTIVE_COMPANY_API_KEY,
  ingestionToken: demo.DEMO_INGESTION_TOKEN,
  professions: demo.DEMO_PROFESSION,
  specialties: demo.DEMO_SPECIALTY,
  titles: demo.DEMO_TITLE,
  identifiers: demo.DEMO_IDENTIFIERS,
  addresses: demo.DEMO_ADDRESSES,
  eventUuid: demo.DEMO_EVENT_UUID,
  consents: demo.DEMO_CONSENTS,
  directoryTeam: demo.DEMO_DIRECTORY_TEAM,
  directories: demo.DEMO_DIRECTORIES,
  directoryConsents: demo.DEMO_DIRECTORY_CONSENTS,
  contactAddresses: demo.DEMO_CONTACT_ADDRESSES,
  eventUuidOf: demo.demoEventUuid,
  inviteUuidOf: demo.demoInviteUuid,
  eventCount: demo.DEMO_EVENT_COUNT,
  eventIdBase: demo.DEMO_EVENT_ID_BASE,
  teamId: demo.DEMO_TEAM_ID,
  scheduleId: demo.DEMO_SCHEDULE_ID,
  sentIds: demo.DEMO_SENT_IDS,
  library: demo.DEMO_LIBRARY,
} as const;

/**
 * The five demo users: Olivia (doctor, Northwind member), Ian (inbound sign-in), Cara (Northwind admin), Omar (not synchronised), Pat (no
 * roles, no connections).
 */
export const { olivia: OLIVIA, ian: IAN, cara: CARA, omar: OMAR, pat: PAT } = DEMO.users;
/** Northwind Health, the demo tenant's company. */
export const NORTHWIND = DEMO.companies.northwind;

/** Olivia's work address as the API answers it: the seed's values, with the names derived from the codes. */
export const OLIVIA_WORK_ADDRESS = {
  uuid: DEMO.addresses.oliviaWork,
  typeCode: 'W',
  type: 'Work',
  name: 'Northwind Health, Cardiology',
  street: '12 Harbour Street',
  city: 'Sydney',
  suburb: 'Haymarket',
  stateCode: 'NSW',
  state: 'New South Wales',
  postcode: '2000',
  countryCode: 'AU',
  country: 'Australia',
  email: 'olivia.nguyen@northwind.example',
  phone: '+61 2 9000 2001',
  fax: null,
  mobile: null,
  department: 'Cardiology',
  division: 'Clinical Services',
  jobTitle: 'Cardiologist',
};
