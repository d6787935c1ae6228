// GraphQL views that are not entities: upload receipts and a page of entries.
import { Field, Int, ObjectType } from 'type-graphql';
import { SmartEntry } from './library.entity';
import type { EntryRow } from './library.read';

@ObjectType({ description: 'Receipt of uploadSmartFile: pass tempFilename to createSmartEntry within 24 hours.' })
export class UploadedSmartFile {
  @Field({ description: "The uploaded file's name, without any path." }) originalFilename!: string;

  @Field({ description: 'Temporary name of the upload, for smartFileInfo.tempFilename.' }) tempFilename!: string;

  @Field(() => Int, { description: 'Size in bytes.' }) bytes!: number;

  @Field({ description: 'MD5 of the content, hex.' }) md5!: string;

  @Field({ description: 'MIME type detected from the content.' }) mimeType!: string;

  @Field(() => Date, { description: 'When the upload expires unless used.' }) expiresAt!: Date;
}

@ObjectType({ description: 'Receipt of uploadTileImage: pass tempImageName to createSmartEntry within 24 hours.' })
export class UploadedTileImage {
  @Field({ description: 'Temporary name of the tile image, for smartFileInfo.tempImageName.' }) tempImageName!: string;

  @Field(() => Int, { description: 'Size in bytes.' }) bytes!: number;

  @Field({ description: 'MD5 of the content, hex.' }) md5!: string;

  @Field({ description: 'MIME type detected from the content.' }) mimeType!: string;

  @Field(() => Date, { description: 'When the upload expires unless used.' }) expiresAt!: Date;
}

@ObjectType({ description: "One page of a library's entries, newest first.", simpleResolvers: true })
export class SmartEntryPage {
  @Field(() => [SmartEntry], { description: 'The entries of this page.' }) items!: EntryRow[];

  @Field(() => Int, { description: 'Entries in the library.' }) totalCount!: number;

  @Field(() => Int, { description: 'This page, from 1.' }) pageNum!: number;

  @Field(() => Int, { description: 'Entries per page.' }) pageSize!: number;
}
