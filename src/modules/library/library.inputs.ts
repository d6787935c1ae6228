// Input of createSmartEntry: the body of POST /rest/smartlib/smartentry, field for field.
// Fields are nullable in GraphQL (the specification leaves required-ness open) and carry their
// own rules (@Rule): required, length, codes, number of items, enforced before the resolver
// runs and added to each field's description. Rules across fields (a URL entry vs a file
// entry), URL parsing and folder-by-id-or-name are the entry draft's (entry.draft.ts).
import { Field, InputType, Int } from 'type-graphql';
import { Rule } from '../../graphql/rules';
import { ENTRY_TYPES, LIMITS, YES_NO } from './library.limits';

@InputType({ description: 'A named link of the entry.' })
export class SmartEntryUrlInput {
  @Field(() => String, { nullable: true, description: 'Display name.' })
  @Rule({ maxLength: LIMITS.urlName, trim: true })
  smartEntryUrlName?: string | null;

  @Field(() => String, { nullable: true, description: 'An http or https URL.' })
  @Rule({ required: true, maxLength: LIMITS.url, trim: true })
  smartEntryUrlValue?: string | null;
}

@InputType({ description: 'A tag, by name; unknown tags are created.' })
export class SmartTagInput {
  @Field(() => String, { nullable: true, description: 'Name of the tag.' })
  @Rule({ required: true, maxLength: LIMITS.tagName, trim: true })
  smartTagName?: string | null;
}

@InputType({ description: 'A folder of the library, by id (preferred) or by name; unknown folders are left out.' })
export class SmartFolderInput {
  @Field(() => Int, { nullable: true, description: 'Id of the folder.' }) smartFolderId?: number | null;

  @Field(() => String, { nullable: true, description: 'Name of the folder, when no id is given.' })
  @Rule({ maxLength: LIMITS.folderName, trim: true })
  smartFolderName?: string | null;
}

@InputType({ description: 'A filter of the library, by name; unknown filters are left out.' })
export class SmartFilterInput {
  @Field(() => String, { nullable: true, description: 'Name of the filter.' })
  @Rule({ required: true, maxLength: LIMITS.filterName, trim: true })
  smartFilterName?: string | null;
}

@InputType({ description: 'A category of the library, by id or by name; unknown categories are left out.' })
export class SmartCategoryInput {
  @Field(() => Int, { nullable: true, description: 'Id of the category.' }) smartCategoryId?: number | null;

  @Field(() => String, { nullable: true, description: 'Name of the category, when no id is given.' })
  @Rule({ maxLength: LIMITS.categoryName, trim: true })
  smartCategoryName?: string | null;
}

@InputType({ description: 'A file of the entry; files are attached through smartFileInfo, so on creation this list must be empty.' })
export class SmartFileRefInput {
  @Field(() => Int, { nullable: true, description: 'Id of an existing file.' }) smartFileId?: number | null;

  @Field(() => String, { nullable: true, description: 'OUF or THMB.' }) smartFileType?: string | null;

  @Field(() => String, { nullable: true, description: 'File name.' }) smartFileName?: string | null;
}

@InputType({ description: 'The temporary names returned by uploadSmartFile and uploadTileImage.' })
export class SmartFileInfoInput {
  @Field(() => String, { nullable: true, description: "Name to give the original file (default: the uploaded file's name)." })
  @Rule({ maxLength: LIMITS.filename, trim: true })
  originalFilename?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'tempFilename from uploadSmartFile; required for file entries, not allowed on URL entries.',
  })
  @Rule({ maxLength: LIMITS.tempName, trim: true })
  tempFilename?: string | null;

  @Field(() => String, { nullable: true, description: 'tempImageName from uploadTileImage: the tile image (optional).' })
  @Rule({ maxLength: LIMITS.tempName, trim: true })
  tempImageName?: string | null;
}

@InputType({ description: 'A new smart entry (createSmartEntry).' })
export class CreateSmartEntryInput {
  @Field(() => Int, { description: 'The library to add the entry to.' }) smartLibId!: number;

  @Field(() => String, { nullable: true, description: 'The kind of entry: URL (a link) or the kind of its uploaded file.' })
  @Rule({ required: true, oneOf: Object.keys(ENTRY_TYPES), anyCase: true, code: 'WSUnsupportedTypeException' })
  smartEntryType?: string | null;

  @Field(() => String, { nullable: true, description: 'Name, unique in the library regardless of case and spacing.' })
  @Rule({ required: true, maxLength: LIMITS.entryName, trim: true })
  smartEntryName?: string | null;

  @Field(() => String, { nullable: true, description: 'Description.' })
  @Rule({ maxLength: LIMITS.entryDesc, trim: true })
  smartEntryDesc?: string | null;

  @Field(() => String, { nullable: true, description: 'Readers may download the original (default N).' })
  @Rule({ oneOf: YES_NO, anyCase: true, format: 'Y or N' })
  smartEntryDownloadOrig?: string | null;

  @Field(() => String, { nullable: true, description: 'Readers may download a PDF rendition (default N).' })
  @Rule({ oneOf: YES_NO, anyCase: true, format: 'Y or N' })
  smartEntryDownloadPdf?: string | null;

  @Field(() => [SmartFileRefInput], { nullable: true, description: 'Must be empty or omitted: files come from smartFileInfo.' })
  smartFiles?: SmartFileRefInput[] | null;

  @Field(() => [SmartCategoryInput], { nullable: true, description: 'Categories of the library.' })
  @Rule({ maxItems: LIMITS.categoriesPerEntry })
  smartEntryCategories?: SmartCategoryInput[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'The link of a URL entry (required there, not allowed on file entries): an http or https URL.',
  })
  @Rule({ maxLength: LIMITS.url, trim: true })
  smartEntryUrlLink?: string | null;

  @Field(() => String, { nullable: true, description: 'Authors, as free text.' })
  @Rule({ maxLength: LIMITS.entryAuthors, trim: true })
  smartEntryAuthors?: string | null;

  @Field(() => Boolean, { nullable: true, description: "true: notify the library's audience of the new entry." })
  sendNotification?: boolean | null;

  @Field(() => [SmartEntryUrlInput], { nullable: true, description: 'Named links.' })
  @Rule({ maxItems: LIMITS.urlsPerEntry })
  smartEntryURLs?: SmartEntryUrlInput[] | null;

  @Field(() => [SmartTagInput], { nullable: true, description: 'Tags; unknown ones are created.' })
  @Rule({ maxItems: LIMITS.tagsPerEntry })
  smartEntryTags?: SmartTagInput[] | null;

  @Field(() => [SmartFolderInput], { nullable: true, description: 'Folders; unknown ones are left out.' })
  @Rule({ maxItems: LIMITS.foldersPerEntry })
  smartEntryFolders?: SmartFolderInput[] | null;

  @Field(() => [SmartFilterInput], { nullable: true, description: 'Filters; unknown ones are left out.' })
  @Rule({ maxItems: LIMITS.filtersPerEntry })
  smartEntryFilters?: SmartFilterInput[] | null;

  @Field(() => SmartFileInfoInput, {
    nullable: true,
    description: 'Temporary names of the uploads; a URL entry may carry only tempImageName.',
  })
  smartFileInfo?: SmartFileInfoInput | null;
}
