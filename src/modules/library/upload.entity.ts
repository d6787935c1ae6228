// A temporary upload (uploadSmartFile / uploadTileImage): content already in shared storage,
// waiting for the createSmartEntry that names it. Any instance can finish the create. Used
// once; purged 24 hours after the upload when unused.
import { Entity, PrimaryKey, Property, ManyToOne, Index, Enum } from '@mikro-orm/decorators/legacy';
import { type Opt, type Rel } from '@mikro-orm/core';
import { User } from '../user';
import { StoredBlob } from '../storage';
import { LIMITS } from './library.limits';

export type UploadKind = 'FILE' | 'TILE';

@Entity({ tableName: 'smart_upload' })
export class SmartUpload {
  @PrimaryKey() id!: number;

  /** tempFilename / tempImageName: unguessable, and only its uploader may use it. */
  @Property({ length: LIMITS.tempName, unique: true }) tempName!: string;

  @Enum({ items: ['FILE', 'TILE'], nativeEnumName: undefined }) kind!: UploadKind;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) @Index() user!: Rel<User>;

  @Property({ length: LIMITS.filename }) originalFilename!: string;

  /** Detected from the content's magic bytes. */
  @Property({ length: 100 }) mimeType!: string;

  @Property({ length: 10 }) ext!: string;

  @ManyToOne(() => StoredBlob, { fieldName: 'blob_sha256' }) @Index() blob!: Rel<StoredBlob>;

  @Property() bytes!: number;

  @Property({ length: 32 }) md5!: string;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();

  @Property() @Index() expiresAt!: Date;
}
