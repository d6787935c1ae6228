// createSupportGroup's input: the specification's form. Text fields stay the strings the form
// sends (comma-separated lists, a JSON array, "true"/"false"), so REST and GraphQL go through
// one parser (support-group.form.ts) and fail with the same errors naming the form's fields.
import { Field, InputType, Int } from 'type-graphql';
import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal';

/** An Upload argument's value: a promise of the file; null when a REST form left the part out. */
export type UploadValue = Promise<FileUpload | null> | null | undefined;

@InputType({ description: 'One asset of the form (REST fields assetName<n>, assetType<n>, ... with n = index).' })
export class SupportGroupAssetInput {
  @Field(() => Int, { nullable: true, description: 'The asset\'s number, 1 to 10 (the REST suffix); default: its position in the list, from 1.' })
  index?: number | null;

  @Field(() => String, { nullable: true, description: 'Name of the asset (assetName<n>, at most 255 characters); required for every asset supplied.' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'html, smartlib or smartdir (assetType<n>); required for every asset supplied.' })
  type?: string | null;

  @Field(() => String, { nullable: true, description: 'Description (assetDescription<n>, at most 2000 characters).' })
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'Internal id/name, unique among the company\'s assets (assetInternalId<n>, at most 100 characters).' })
  internalId?: string | null;

  @Field(() => GraphQLUpload, { nullable: true, description: 'Asset image (assetImageFile<n>): PNG, JPEG, GIF or WebP, at most UPLOAD_TILE_MAX_BYTES.' })
  imageFile?: UploadValue;

  @Field(() => GraphQLUpload, { nullable: true, description: 'File of the asset\'s first version (assetVersionFile<n>): a type of UPLOAD_ALLOWED_TYPES (html assets also HTML or ZIP), at most UPLOAD_MAX_BYTES.' })
  versionFile?: UploadValue;
}

@InputType({ description: 'The support group form (createSupportGroup).' })
export class CreateSupportGroupInput {
  @Field(() => Int, { description: 'The company; the caller must administer it and the company API key must be one of its keys.' })
  companyId!: number;

  @Field({ description: 'Prefix name (at most 50 characters); with countryCode and stateCode it prefixes every name created.' })
  supportGroupPrefix!: string;

  @Field({ description: 'Display name (at most 150 characters).' })
  supportGroupName!: string;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code added to the prefix.' })
  countryCode?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-2 subdivision code (after the dash, e.g. NSW) of countryCode, added to the prefix.' })
  stateCode?: string | null;

  @Field({ description: 'Comma-separated e-mail addresses of the team admins (at most 50), each a user with an accepted connection to the company.' })
  teamAdminUserEmails!: string;

  @Field({ description: 'UNRESTRICTED, PARTIALLY_RESTRICTED or FULLY_RESTRICTED.' })
  directoryType!: string;

  @Field({ description: 'FL (first name, last name) or LF (last name, first name).' })
  directoryOrder!: string;

  @Field({ description: 'Comma-separated field definition ids (getFieldDefinitions); first and last name are added by default.' })
  directoryFieldIds!: string;

  @Field(() => String, { nullable: true, description: 'true or false (default false): contact records are filled from the member\'s profile.' })
  autoPopulateFromProfile?: string | null;

  @Field({ description: 'JSON array of {consentType: "DS", name, desc, optionalDesc?, required} (at most 20).' })
  directoryConsents!: string;

  @Field(() => GraphQLUpload, { nullable: true, description: 'Team logo: PNG, JPEG, GIF or WebP, at most UPLOAD_TILE_MAX_BYTES.' })
  teamImageFile?: UploadValue;

  @Field(() => [SupportGroupAssetInput], { nullable: true, description: 'The assets, at most 10 (numbers 1 to 10).' })
  assets?: SupportGroupAssetInput[] | null;
}
