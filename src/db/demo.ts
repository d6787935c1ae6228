// The demo tenant's ids, names and secrets: what the seeders write and what the test kit, the
// start-up banner and the development identity provider refer to. Plain data, no seeding code,
// so production code may name a demo id without loading a seeder.

// reference-data.seeder.ts
export const DEMO_PROFESSION = { doctor: 101, nurse: 102, pharmacist: 103, physiotherapist: 104, psychologist: 105 };
export const DEMO_SPECIALTY = { cardiology: 201, oncology: 202, paediatrics: 203, intensiveCare: 204, clinicalPharmacy: 205, sports: 206 };
export const DEMO_ASSESSMENT_UUIDS = ['b0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000002'];

// core.seeder.ts
export const DEMO_PASSWORD = 'Demo-Passw0rd!';
export const DEMO_USERS = { olivia: 2001, ian: 2002, cara: 2003, omar: 2004, pat: 2005 };
export const DEMO_COMPANIES = {
  northwind: 1001,
  southgate: 1002,
  eastwood: 1003,
  westfield: 1004,
  hidden: 1005,
  closed: 1006,
  pending: 1007,
};
export const DEMO_COMPANY_API_KEY = '5e0c1a52-7d4b-4c8e-9f1a-000000001001';
export const DEMO_INACTIVE_COMPANY_API_KEY = '5e0c1a52-7d4b-4c8e-9f1a-000000009999';
export const DEMO_INGESTION_TOKEN = 'demo-ingestion-token';

// user.seeder.ts
export const DEMO_TITLE = { dr: 6 };

// discovery.seeder.ts
export const DEMO_IDENTIFIERS = { ahpra: 501, mcnz: 502, northwindMember: 503 };

// address.seeder.ts
export const DEMO_ADDRESSES = {
  oliviaWork: 'a0000000-0000-4000-8000-000000002001',
  oliviaPersonal: 'a0000000-0000-4000-8000-000000002002',
};

// consent.seeder.ts
export const DEMO_EVENT_UUID = 'e0000000-0000-4000-8000-000000000001';
export const DEMO_CONSENTS = {
  northwindProfile: 'c0000000-0000-4000-8000-000000001001',
  northwindNews: 'c0000000-0000-4000-8000-000000001002',
  eventAttendance: 'c0000000-0000-4000-8000-000000002001',
  eventPhotos: 'c0000000-0000-4000-8000-000000002002',
};

// directory.seeder.ts
export const DEMO_DIRECTORY_TEAM = 5101;
export const DEMO_DIRECTORIES = { staff: 'd0000000-0000-4000-8000-000000001001', cardiology: 'd0000000-0000-4000-8000-000000001002' };
export const DEMO_DIRECTORY_CONSENTS = {
  staff: 'c0000000-0000-4000-8000-000000003001',
  cardiology: 'c0000000-0000-4000-8000-000000003002',
};
export const DEMO_CONTACT_ADDRESSES = { staff: 'a0000000-0000-4000-8000-000000003001', cardiology: 'a0000000-0000-4000-8000-000000003002' };

// event.seeder.ts
const pad = (n: number) => String(n).padStart(12, '0');
export const demoEventUuid = (n: number) => `e0000000-0000-4000-8000-${pad(n)}`;
export const demoInviteUuid = (n: number) => `e1000000-0000-4000-8000-${pad(n)}`;
export const DEMO_EVENT_COUNT = 25;
export const DEMO_EVENT_ID_BASE = 5000;

// notification.seeder.ts
export const DEMO_TEAM_ID = 1101;
export const DEMO_SCHEDULE_ID = 7001;
export const DEMO_SENT_IDS = { welcome: 6001, flu: 6002, scheduled: 6003, event: 6004 };

// library.seeder.ts
export const DEMO_LIBRARY = { smartLibId: 3001, welcomePackEntryId: 4001 };
