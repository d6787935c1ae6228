// GraphQL views that are not entities: upload receipts, and the cursor connection of a library's entries.
import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { ConnectionArgs, connectionType } from '../../graphql/connection';
import { SmartEntry } from './library.entity';

@ObjectType({ description: 'Receipt of uploadSmartFile: pass tempFilename to createSmartEntry within 24 hours.', simpleResolvers: true })
export class UploadedSmartFile {
  @Field({ description: "The uploaded file's name, without any path." }) originalFilename!: string;

  @Field({ description: 'Temporary name of the upload, for smartFileInfo.tempFilename.' }) tempFilename!: string;

  @Field(() => Int, { description: 'Size in bytes.' }) bytes!: number;

  @Field({ description: 'MD5 of the content, hex.' }) md5!: string;

  @Field({ description: 'MIME type detected from the content.' }) mimeType!: string;

  @Field(() => Date, { description: 'When the upload expires unless used.' }) expiresAt!: Date;
}

@ObjectType({ description: 'Receipt of uploadTileImage: pass tempImageName to createSmartEntry within 24 hours.', simpleResolvers: true })
export class UploadedTileImage {
  @Field({ description: 'Temporary name of the tile image, for smartFileInfo.tempImageName.' }) tempImageName!: string;

  @Field(() => Int, { description: 'Size in bytes.' }) bytes!: number;

  @Field({ description: 'MD5 of the content, hex.' }) md5!: string;

  @Field({ description: 'MIME type detected from the content.' }) mimeType!: string;

  @Field(() => Date, { description: 'When the upload expires unless used.' }) expiresAt!: Date;
}

/** The SmartEntryConnection and SmartEntryEdge types of SmartLibrary.entries. */
export const SmartEntryConnection = connectionType(SmartEntry, 'SmartEntry', 'entry record');

/** The arguments of SmartLibrary.entries: the page (first, after) and the optional filters. */
@ArgsType()
export class SmartEntriesArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the entries in this folder of the library (its smartFolderId).' })
  folderId?: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Only the entries with this tag, named as tags match names: case, outer and repeated spaces and compatibility forms aside.',
  })
  tagName?: string | null;
}
