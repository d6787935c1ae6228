// createSupportGroup's input: the specification's form. Text fields stay the strings the form
// sends (comma-separated lists, a JSON array, "true"/"false"), so REST and GraphQL go through
// one parser (support-group.form.ts) and fail with the same errors naming the form's fields.
// A field's own rules (@Rule: required, length, codes) are enforced before the resolver runs.
// An asset's fields have none here: their errors name the numbered form field (assetName3),
// which only the parser knows, so it checks them against the same SUPPORT_GROUP_LIMITS.
import { Field, InputType, Int } from 'type-graphql';
import type { FileUpload } from 'graphql-upload-minimal';
import { Upload } from '../../graphql/scalars';
import { Rule } from '../../graphql/rules';
import { DIRECTORY_ORDERS, DIRECTORY_TYPES } from '../directory';
import { ASSET_TYPES } from './support-group.entity';
import { SUPPORT_GROUP_LIMITS as LIMITS } from './support-group.limits';

/** An Upload argument's value: a promise of the file; null when a REST form left the part out. */
export type UploadValue = Promise<FileUpload | null> | null | undefined;

@InputType({ description: 'One asset of the form (REST fields assetName<n>, assetType<n>, ... with n = index).' })
export class SupportGroupAssetInput {
  @Field(() => Int, {
    nullable: true,
    description: `The asset's number, 1 to ${LIMITS.assets} (the REST suffix), each used once; default: its position in the list, from 1.`,
  })
  index?: number | null;

  @Field(() => String, {
    nullable: true,
    description: `Name of the asset (assetName<n>, at most ${LIMITS.assetName} characters); required for every asset supplied.`,
  })
  name?: string | null;

  @Field(() => String, {
    nullable: true,
    description: `One of ${ASSET_TYPES.join(', ')}, any case (assetType<n>); required for every asset supplied.`,
  })
  type?: string | null;

  @Field(() => String, { nullable: true, description: `Description (assetDescription<n>, at most ${LIMITS.assetDescription} characters).` })
  description?: string | null;

  @Field(() => String, {
    nullable: true,
    description: `Internal id/name, unique among the company's assets (assetInternalId<n>, at most ${LIMITS.assetInternalId} characters).`,
  })
  internalId?: string | null;

  @Field(() => Upload, {
    nullable: true,
    description: 'Asset image (assetImageFile<n>): PNG, JPEG, GIF or WebP, at most UPLOAD_TILE_MAX_BYTES.',
  })
  imageFile?: UploadValue;

  @Field(() => Upload, {
    nullable: true,
    description:
      "File of the asset's first version (assetVersionFile<n>): a type of UPLOAD_ALLOWED_TYPES (html assets also HTML or ZIP), at most UPLOAD_MAX_BYTES.",
  })
  versionFile?: UploadValue;
}

@InputType({ description: 'The support group form (createSupportGroup).' })
export class CreateSupportGroupInput {
  @Field(() => Int, { description: 'The company; the caller must administer it and the company API key must be one of its keys.' })
  @Rule({ min: 1 })
  companyId!: number;

  @Field({ description: 'Prefix name; with countryCode and stateCode it prefixes every name created.' })
  @Rule({ required: true, maxLength: LIMITS.prefix, trim: true })
  supportGroupPrefix!: string;

  @Field({ description: 'Display name.' }) @Rule({ required: true, maxLength: LIMITS.name, trim: true }) supportGroupName!: string;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code added to the prefix.' })
  @Rule({ maxLength: LIMITS.countryCode, trim: true })
  countryCode?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 3166-2 subdivision code (after the dash, e.g. NSW) of countryCode, added to the prefix.',
  })
  @Rule({ maxLength: LIMITS.stateCode, trim: true })
  stateCode?: string | null;

  @Field({
    description: `Comma-separated e-mail addresses of the team admins (at most ${LIMITS.adminEmails}, each at most ${LIMITS.email} characters), each a user with an accepted connection to the company.`,
  })
  @Rule({ required: true })
  teamAdminUserEmails!: string;

  @Field({ description: "Restriction of the support group's smart directory." })
  @Rule({ required: true, oneOf: DIRECTORY_TYPES, anyCase: true })
  directoryType!: string;

  @Field({ description: 'Name order: FL (first name, last name) or LF (last name, first name).' })
  @Rule({ required: true, oneOf: DIRECTORY_ORDERS, anyCase: true })
  directoryOrder!: string;

  @Field({
    description: `Comma-separated field definition ids (getFieldDefinitions, at most ${LIMITS.fieldIds}); first and last name are added by default.`,
  })
  @Rule({ required: true })
  directoryFieldIds!: string;

  @Field(() => String, { nullable: true, description: "Contact records are filled from the member's profile (default false)." })
  @Rule({ oneOf: ['true', 'false'], anyCase: true, format: 'true or false' })
  autoPopulateFromProfile?: string | null;

  @Field({
    description: `JSON array of {consentType: "DS", name, desc, optionalDesc?, required} (at most ${LIMITS.consents}; name at most ${LIMITS.consentName} characters, desc and optionalDesc ${LIMITS.consentDesc}).`,
  })
  @Rule({ required: true })
  directoryConsents!: string;

  @Field(() => Upload, { nullable: true, description: 'Team logo: PNG, JPEG, GIF or WebP, at most UPLOAD_TILE_MAX_BYTES.' })
  teamImageFile?: UploadValue;

  @Field(() => [SupportGroupAssetInput], { nullable: true, description: `The assets, numbered 1 to ${LIMITS.assets}.` })
  assets?: SupportGroupAssetInput[] | null;
}
