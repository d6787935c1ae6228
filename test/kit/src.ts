// The parts of src the kit builds on (and the few a test reaches past the public surfaces for),
// imported here and nowhere else in the kit: when src moves a file, this is the one edit.
export { ConfigError, DEMO_LOGIN_CLIENT, loadConfig, type Config } from '../../src/config';
export { createLogger } from '../../src/logger';
export { createApp, type App } from '../../src/app';
export { DemoSeeder } from '../../src/modules/demo-seed';
export { createOrm, migrate } from '../../src/db/orm';
export * as demo from '../../src/db/demo';
export type { RouteDef } from '../../src/rest/route';

export { User } from '../../src/modules/user/user.entity';
export { Company, CompanyApiKey, CompanyRole, type CompanyRoleName } from '../../src/modules/company/company.entity';
export { CompanyConnection, type ConnectionStatus } from '../../src/modules/connection/connection.entity';
export { acceptedConnectionUserIds, hasAcceptedConnection } from '../../src/modules/connection/connection.service';
export { Team, TeamMember } from '../../src/modules/team/team.entity';
export { ServiceAuthToken, SystemToken } from '../../src/modules/identity/identity.entity';
export { OAuthClient, type GrantType } from '../../src/modules/identity/oauth.entity';
export { hashToken, newOpaqueToken, SERVICE_TOKEN_TTL_MS } from '../../src/modules/identity/tokens';
export { createDevIdp, type DevAccount } from '../../src/modules/identity/dev-idp';
export { UserAddress } from '../../src/modules/address/address.entity';
export { ContactAddress, ContactRecord, SmartDirectory, type DirectoryType } from '../../src/modules/directory/directory.entity';
export { ConsentDefinition, UserConsent } from '../../src/modules/directory/consent.entity';
export { createSmartDirectory } from '../../src/modules/directory/directory.service';
export { DiscoveryCriterion } from '../../src/modules/discovery/criterion.entity';
export { IdentifierDefinition, UserIdentifier } from '../../src/modules/discovery/identifier.entity';
export { Event, EventAttendee } from '../../src/modules/event/event.entity';
export { createSmartLibrary, ensureTerms, grantPublisher } from '../../src/modules/library/library.service';
export { onePagePdf } from '../../src/modules/library/library.seeder';
export { ENTRY_FIELDS } from '../../src/modules/library/library.routes';
export { SmartUpload } from '../../src/modules/library/upload.entity';
export { deliverScheduled, enqueuePending } from '../../src/modules/notification/notification.dispatch';
export { QUEUE_SCHEMA, jobIdOf } from '../../src/core/queue';
export { RateLimits } from '../../src/core/rate-limit';
export { buildContext, type Context } from '../../src/context';
export type { Services } from '../../src/services';
export { loadSigningKeys, type SigningKeys } from '../../src/modules/identity/keys';
export { ACCESS_TOKEN_TYPE, TokenSigner } from '../../src/modules/identity/access-token';
export {
  CacheUnavailableError,
  MemoryTokenCache,
  type CachedToken,
  type CacheLookup,
  type TokenCache,
} from '../../src/modules/identity/token-cache';
export { TokenFamily } from '../../src/modules/identity/oauth.entity';
export { SmartEntry, SmartLibrary } from '../../src/modules/library/library.entity';
export { QrCode } from '../../src/modules/support-group/support-group.entity';
export { storeBuffer } from '../../src/modules/storage/blob-store';
export { ServiceError } from '../../src/core/errors';
