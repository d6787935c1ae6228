// Every entity the ORM knows, in one list: the ORM, the schema check and the migration
// generator all read it. Each module appends its entities.
import { Condition, ReferenceDataVersion, AssessmentForm, AssessmentField, Profession, Specialty, FieldDefinition } from '../modules/reference-data/reference-data.entity';
import { User } from '../modules/user/user.entity';
import { Company, CompanyRole, CompanyApiKey } from '../modules/company/company.entity';
import { Team, TeamMember } from '../modules/team/team.entity';
import { ServiceAuthToken, SystemToken } from '../modules/identity/identity.entity';
import { OAuthClient, TokenFamily, RefreshToken, AuthorizationCode, InboundRequest, AuthRateLimit } from '../modules/identity/oauth.entity';
import { CompanyConnection } from '../modules/company/connection.entity';
import { IdentifierDefinition, UserIdentifier } from '../modules/discovery/identifier.entity';
import { DiscoveryCriterion } from '../modules/discovery/criterion.entity';
import { Title, Gender } from '../modules/user/user-reference.entity';
import { UserAddress } from '../modules/address/address.entity';
import { ConsentDefinition, UserConsent } from '../modules/consent/consent.entity';
import { SmartDirectory, SmartDirectoryField, ContactRecord, ContactAddress } from '../modules/directory/directory.entity';
import { Event, EventAttendee } from '../modules/event/event.entity';
import { ScheduledNotification, SentNotification, NotificationInbox, AssetLevelPreference } from '../modules/notification/notification.entity';

import { StoredBlob, StoredBlobChunk } from '../modules/storage/blob.entity';
import { SmartLibrary, SmartLibraryPublisher, SmartEntry } from '../modules/library/library.entity';
import { SmartFile, SmartEntryUrl } from '../modules/library/entry-content.entity';
import { SmartTag, SmartFolder, SmartFilter, SmartCategory, SmartEntryTag, SmartEntryFolder, SmartEntryFilter, SmartEntryCategory } from '../modules/library/taxonomy.entity';
import { SmartUpload } from '../modules/library/upload.entity';
import { Product, ProductAsset, ProductAssetVersion, QrCode, TeamImage } from '../modules/support-group/support-group.entity';

export const ENTITIES = [
  Condition, ReferenceDataVersion, AssessmentForm, AssessmentField, Profession, Specialty, FieldDefinition,
  User, Company, CompanyRole, CompanyApiKey, Team, TeamMember, ServiceAuthToken, SystemToken,
  CompanyConnection, IdentifierDefinition, UserIdentifier, DiscoveryCriterion,
  OAuthClient, TokenFamily, RefreshToken, AuthorizationCode, InboundRequest, AuthRateLimit,
  Title, Gender, UserAddress, ConsentDefinition, UserConsent, SmartDirectory, SmartDirectoryField, ContactRecord, ContactAddress,
  Event, EventAttendee, ScheduledNotification, SentNotification, NotificationInbox, AssetLevelPreference,
  StoredBlob, StoredBlobChunk, SmartLibrary, SmartLibraryPublisher, SmartEntry, SmartFile, SmartEntryUrl, SmartUpload,
  SmartTag, SmartFolder, SmartFilter, SmartCategory, SmartEntryTag, SmartEntryFolder, SmartEntryFilter, SmartEntryCategory,
  Product, ProductAsset, ProductAssetVersion, QrCode, TeamImage,
];
