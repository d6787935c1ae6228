// Input of createSmartEntry: the body of POST /rest/smartlib/smartentry, field for field.
// Fields are nullable here and checked by the service, so a missing or bad value is named
// alike through GraphQL and REST.
import { Field, InputType, Int } from 'type-graphql';

@InputType({ description: 'A named link of the entry.' })
export class SmartEntryUrlInput {
  @Field(() => String, { nullable: true, description: 'Display name (at most 255 characters).' })
  smartEntryUrlName?: string | null;

  @Field(() => String, { nullable: true, description: 'An http or https URL (at most 2048 characters); required.' })
  smartEntryUrlValue?: string | null;
}

@InputType({ description: 'A tag, by name; unknown tags are created.' })
export class SmartTagInput {
  @Field(() => String, { nullable: true, description: 'Name of the tag (at most 100 characters).' })
  smartTagName?: string | null;
}

@InputType({ description: 'A folder of the library, by id (preferred) or by name; unknown folders are left out.' })
export class SmartFolderInput {
  @Field(() => Int, { nullable: true, description: 'Id of the folder.' })
  smartFolderId?: number | null;

  @Field(() => String, { nullable: true, description: 'Name of the folder, when no id is given.' })
  smartFolderName?: string | null;
}

@InputType({ description: 'A filter of the library, by name; unknown filters are left out.' })
export class SmartFilterInput {
  @Field(() => String, { nullable: true, description: 'Name of the filter.' })
  smartFilterName?: string | null;
}

@InputType({ description: 'A category of the library, by id or by name; unknown categories are left out.' })
export class SmartCategoryInput {
  @Field(() => Int, { nullable: true, description: 'Id of the category.' })
  smartCategoryId?: number | null;

  @Field(() => String, { nullable: true, description: 'Name of the category, when no id is given.' })
  smartCategoryName?: string | null;
}

@InputType({ description: 'A file of the entry; files are attached through smartFileInfo, so on creation this list must be empty.' })
export class SmartFileRefInput {
  @Field(() => Int, { nullable: true, description: 'Id of an existing file.' })
  smartFileId?: number | null;

  @Field(() => String, { nullable: true, description: 'OUF or THMB.' })
  smartFileType?: string | null;

  @Field(() => String, { nullable: true, description: 'File name.' })
  smartFileName?: string | null;
}

@InputType({ description: 'The temporary names returned by uploadSmartFile and uploadTileImage.' })
export class SmartFileInfoInput {
  @Field(() => String, { nullable: true, description: 'Name to give the original file (default: the uploaded file\'s name; at most 255 characters).' })
  originalFilename?: string | null;

  @Field(() => String, { nullable: true, description: 'tempFilename from uploadSmartFile; required for file entries, not allowed on URL entries.' })
  tempFilename?: string | null;

  @Field(() => String, { nullable: true, description: 'tempImageName from uploadTileImage: the tile image (optional).' })
  tempImageName?: string | null;
}

@InputType({ description: 'A new smart entry (createSmartEntry).' })
export class CreateSmartEntryInput {
  @Field(() => Int, { description: 'The library to add the entry to.' })
  smartLibId!: number;

  @Field(() => String, { nullable: true, description: 'URL, IMG, PDF, DOC, VID or AUD; required.' })
  smartEntryType?: string | null;

  @Field(() => String, { nullable: true, description: 'Name, unique in the library regardless of case (at most 255 characters); required.' })
  smartEntryName?: string | null;

  @Field(() => String, { nullable: true, description: 'Description (at most 2000 characters).' })
  smartEntryDesc?: string | null;

  @Field(() => String, { nullable: true, description: 'Y or N (default N): readers may download the original.' })
  smartEntryDownloadOrig?: string | null;

  @Field(() => String, { nullable: true, description: 'Y or N (default N): readers may download a PDF rendition.' })
  smartEntryDownloadPdf?: string | null;

  @Field(() => [SmartFileRefInput], { nullable: true, description: 'Must be empty or omitted: files come from smartFileInfo.' })
  smartFiles?: SmartFileRefInput[] | null;

  @Field(() => [SmartCategoryInput], { nullable: true, description: 'Categories of the library (at most 20).' })
  smartEntryCategories?: SmartCategoryInput[] | null;

  @Field(() => String, { nullable: true, description: 'The link of a URL entry: an http or https URL (at most 2048 characters).' })
  smartEntryUrlLink?: string | null;

  @Field(() => String, { nullable: true, description: 'Authors, as free text (at most 500 characters).' })
  smartEntryAuthors?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'true: notify the library\'s audience of the new entry.' })
  sendNotification?: boolean | null;

  @Field(() => [SmartEntryUrlInput], { nullable: true, description: 'Named links (at most 10).' })
  smartEntryURLs?: SmartEntryUrlInput[] | null;

  @Field(() => [SmartTagInput], { nullable: true, description: 'Tags (at most 20); unknown ones are created.' })
  smartEntryTags?: SmartTagInput[] | null;

  @Field(() => [SmartFolderInput], { nullable: true, description: 'Folders (at most 20); unknown ones are left out.' })
  smartEntryFolders?: SmartFolderInput[] | null;

  @Field(() => [SmartFilterInput], { nullable: true, description: 'Filters (at most 20); unknown ones are left out.' })
  smartEntryFilters?: SmartFilterInput[] | null;

  @Field(() => SmartFileInfoInput, { nullable: true, description: 'Temporary names of the uploads; a URL entry may carry only tempImageName.' })
  smartFileInfo?: SmartFileInfoInput | null;
}
