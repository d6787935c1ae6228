// What createSupportGroup provisions besides the team, library and directory (core and other
// modules' tables): the product that ties the bundle together, its assets with their first
// version, the team's QR code and the team's image. Uploaded bytes live in shared storage
// (stored_blob), referred to by SHA-256.
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp, t, type Opt, type Rel } from '@mikro-orm/core';
import { Company } from '../company';
import { Team } from '../team';
import { User } from '../user';
import { StoredBlob } from '../storage';
import { SmartLibrary } from '../library';
import { SmartDirectory } from '../directory';
import { SUPPORT_GROUP_LIMITS } from './support-group.limits';

export const ASSET_TYPES = ['html', 'smartlib', 'smartdir'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** A support group's product: one per createSupportGroup, named from the prefix (docs/api/support-group.md). */
@Entity({ tableName: 'product' })
@Unique({ properties: ['company', 'productName'] })
export class Product {
  [PrimaryKeyProp]?: 'productId';

  @PrimaryKey() productId!: number;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) company!: Rel<Company>;

  @ManyToOne(() => Team, { fieldName: 'team_id', deleteRule: 'cascade' }) @Index() team!: Rel<Team>;

  @Property({ length: 255 }) productName!: string;

  /** The form's values the names were made from. */
  @Property({ length: SUPPORT_GROUP_LIMITS.prefix }) supportGroupPrefix!: string;

  @Property({ length: SUPPORT_GROUP_LIMITS.name }) supportGroupName!: string;

  @Property({ length: SUPPORT_GROUP_LIMITS.countryCode, nullable: true }) countryCode?: string | null;

  @Property({ length: SUPPORT_GROUP_LIMITS.stateCode, nullable: true }) stateCode?: string | null;

  @ManyToOne(() => SmartLibrary, { fieldName: 'smart_lib_id', nullable: true, deleteRule: 'set null' })
  @Index()
  smartLibrary?: Rel<SmartLibrary> | null;

  @ManyToOne(() => SmartDirectory, { fieldName: 'directory_uuid', nullable: true, deleteRule: 'set null' })
  @Index()
  smartDirectory?: Rel<SmartDirectory> | null;

  /** The company administrator who provisioned it. */
  @ManyToOne(() => User, { fieldName: 'created_by', nullable: true, deleteRule: 'set null' }) createdBy?: Rel<User> | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/**
 * An asset of a product (form suffix 1 to SUPPORT_GROUP_LIMITS.assets). A smartlib asset opens the support group's
 * library, a smartdir asset its directory; an html asset is content of its own (its versions).
 */
@Entity({ tableName: 'product_asset' })
@Unique({ properties: ['product', 'assetNumber'] })
// "Internal id/name for storage uniqueness": unique among the company's assets.
@Unique({ properties: ['company', 'assetInternalId'] })
export class ProductAsset {
  [PrimaryKeyProp]?: 'assetId';

  @PrimaryKey() assetId!: number;

  @ManyToOne(() => Product, { fieldName: 'product_id', deleteRule: 'cascade' }) product!: Rel<Product>;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) company!: Rel<Company>;

  /** The form's suffix, 1 to SUPPORT_GROUP_LIMITS.assets. */
  @Property({ type: 'smallint' }) assetNumber!: number;

  @Property({ length: SUPPORT_GROUP_LIMITS.assetName }) assetName!: string;

  @Enum({ items: [...ASSET_TYPES], nativeEnumName: undefined }) assetType!: AssetType;

  @Property({ length: SUPPORT_GROUP_LIMITS.assetDescription, nullable: true }) assetDescription?: string | null;

  @Property({ length: SUPPORT_GROUP_LIMITS.assetInternalId, nullable: true }) assetInternalId?: string | null;

  @ManyToOne(() => StoredBlob, { fieldName: 'image_sha256', nullable: true }) @Index() image?: Rel<StoredBlob> | null;

  @Property({ length: 255, nullable: true }) imageFileName?: string | null;

  @Property({ length: 100, nullable: true }) imageMimeType?: string | null;

  @Property({ type: t.integer, nullable: true }) imageBytes?: number | null;

  @Property({ length: 32, nullable: true }) imageMd5?: string | null;

  @ManyToOne(() => SmartLibrary, { fieldName: 'smart_lib_id', nullable: true, deleteRule: 'set null' })
  @Index()
  smartLibrary?: Rel<SmartLibrary> | null;

  @ManyToOne(() => SmartDirectory, { fieldName: 'directory_uuid', nullable: true, deleteRule: 'set null' })
  @Index()
  smartDirectory?: Rel<SmartDirectory> | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/** A version of an asset; createSupportGroup writes version 1, with the version file when one was sent. */
@Entity({ tableName: 'product_asset_version' })
@Unique({ properties: ['asset', 'versionNumber'] })
export class ProductAssetVersion {
  [PrimaryKeyProp]?: 'assetVersionId';

  @PrimaryKey() assetVersionId!: number;

  @ManyToOne(() => ProductAsset, { fieldName: 'asset_id', deleteRule: 'cascade' }) asset!: Rel<ProductAsset>;

  @Property({ type: t.integer, default: 1 }) versionNumber: number & Opt = 1;

  @ManyToOne(() => StoredBlob, { fieldName: 'file_sha256', nullable: true }) @Index() file?: Rel<StoredBlob> | null;

  @Property({ length: 255, nullable: true }) fileName?: string | null;

  @Property({ length: 100, nullable: true }) mimeType?: string | null;

  @Property({ type: t.integer, nullable: true }) bytes?: number | null;

  @Property({ length: 32, nullable: true }) md5?: string | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/** The QR code of a support group's team: a PNG encoding the team's join URL (docs/api/support-group.md, "QR code"). */
@Entity({ tableName: 'qr_code' })
export class QrCode {
  [PrimaryKeyProp]?: 'qrCodeId';

  @PrimaryKey() qrCodeId!: number;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) @Index() company!: Rel<Company>;

  @ManyToOne(() => Team, { fieldName: 'team_id', deleteRule: 'cascade' }) @Index() team!: Rel<Team>;

  @ManyToOne(() => Product, { fieldName: 'product_id', nullable: true, deleteRule: 'cascade' }) @Index() product?: Rel<Product> | null;

  @Property({ length: 255 }) qrCodeName!: string;

  /** The unguessable part of the join URL: whoever holds the code was handed the QR code. */
  @Property({ length: 43, unique: true }) joinCode!: string;

  @Property({ length: 2048 }) joinUrl!: string;

  @ManyToOne(() => StoredBlob, { fieldName: 'image_sha256' }) @Index() image!: Rel<StoredBlob>;

  @Property({ type: t.integer }) imageBytes!: number;

  @Property({ length: 32 }) imageMd5!: string;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/** A team's image (teamImageFile): the team table keeps no bytes of its own. */
@Entity({ tableName: 'team_image' })
export class TeamImage {
  [PrimaryKeyProp]?: 'team';

  @ManyToOne(() => Team, { primary: true, fieldName: 'team_id', deleteRule: 'cascade' }) team!: Rel<Team>;

  @ManyToOne(() => StoredBlob, { fieldName: 'image_sha256' }) @Index() image!: Rel<StoredBlob>;

  @Property({ length: 255 }) fileName!: string;

  @Property({ length: 100 }) mimeType!: string;

  @Property({ type: t.integer }) bytes!: number;

  @Property({ length: 32 }) md5!: string;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}
