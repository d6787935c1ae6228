import { Arg, Ctx, Int, Mutation, Query, Resolver, UseMiddleware } from 'type-graphql';
import type { FileUpload } from 'graphql-upload-minimal';
import { Upload } from '../../graphql/scalars';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { ServiceError } from '../../core/errors';
import { SmartEntry, SmartLibrary } from './library.entity';
import type { EntryRow, FileRow, LibraryRow } from './library.sql';
import { SmartFile } from './entry-content.entity';
import { CreateSmartEntryInput } from './library.inputs';
import { UploadedSmartFile, UploadedTileImage } from './library.types';
import { acceptUpload, UploadFailures } from './upload.service';
import { createSmartEntry } from './entry.service';
import { checkIngestionFailure, recordIngestionFailure } from './ingestion.service';
import { canReadLibrary, readableEntry, readableLibrary } from './library.access';
import { isPublisher } from './library.service';
import { LIMITS } from './library.limits';

@Resolver()
@ServiceBoundary('WSSmartLibraryServiceException')
export class LibraryResolver {
  @Query(() => SmartLibrary, { description: 'A smart library the caller may read (publishers, company administrators, team members).' })
  async smartLibrary(
    @Ctx() ctx: Context,
    @Arg('smartLibId', () => Int, { description: 'Id of the library.' }) smartLibId: number,
  ): Promise<LibraryRow> {
    // The caller first, outside the privilege wrapper: a database that does not answer here is the
    // library's store failing (WSSmartLibraryServiceException), as when the library was read first.
    await ctx.auth.requireUser();
    const library = await readableLibrary(ctx, smartLibId);
    if (!library) throw new ServiceError('WSSmartLibNotFoundException', undefined, { field: 'smartLibId' });
    return library;
  }

  @Query(() => SmartEntry, { description: 'A smart entry of a library the caller may read.' })
  async smartEntry(
    @Ctx() ctx: Context,
    @Arg('smartEntryId', () => Int, { description: 'Id of the entry.' }) smartEntryId: number,
  ): Promise<EntryRow> {
    const entry = await readableEntry(ctx, smartEntryId);
    if (!entry) throw new ServiceError('SmartEntryNotFoundException', undefined, { field: 'smartEntryId' });
    return entry;
  }

  @Query(() => SmartFile, {
    description:
      'A stored file the caller may download: tiles for every reader, originals for publishers and, when smartEntryDownloadOrig is Y, every reader.',
  })
  async smartFile(
    @Ctx() ctx: Context,
    @Arg('smartFileId', () => Int, { description: 'Id of the file.' }) smartFileId: number,
  ): Promise<FileRow> {
    // Through the request's loader: the REST download streams the bytes of the row read here (download.service.ts).
    const file = await ctx.loaders.smartFileDownload.load(smartFileId);
    if (!file || !(await canReadLibrary(ctx, file.library)))
      throw new ServiceError('WSRecordNotFoundException', 'The file was not found.', { field: 'smartFileId' });
    if (file.smartFileType === 'OUF' && file.smartEntryDownloadOrig !== 'Y') {
      const { user } = await ctx.auth.requireUser();
      if (!(await isPublisher(ctx.em, file.library, user.uId))) {
        throw new ServiceError('WSInsufficientPrivilegesException', 'Only publishers may download the original of this entry.');
      }
    }
    return file;
  }

  @Mutation(() => UploadedSmartFile, {
    description: 'Uploads a file for a later createSmartEntry (uploadSmartFile). Multipart request; library publishers only.',
  })
  @UseMiddleware(UploadFailures('FILE'))
  async uploadSmartFile(
    @Ctx() ctx: Context,
    // type-graphql awaits the Upload scalar's promise before the resolver runs.
    @Arg('file', () => Upload, { description: 'The file; its type is detected from its content.' }) file: FileUpload,
  ): Promise<UploadedSmartFile> {
    const upload = await acceptUpload(ctx, file, 'FILE');
    return {
      originalFilename: upload.originalFilename,
      tempFilename: upload.tempName,
      bytes: upload.bytes,
      md5: upload.md5,
      mimeType: upload.mimeType,
      expiresAt: upload.expiresAt,
    };
  }

  @Mutation(() => UploadedTileImage, {
    description: 'Uploads a tile image for a later createSmartEntry (uploadTileImage). Multipart request; library publishers only.',
  })
  @UseMiddleware(UploadFailures('TILE'))
  async uploadTileImage(
    @Ctx() ctx: Context,
    @Arg('file', () => Upload, { description: 'A PNG, JPEG, GIF or WebP image.' }) file: FileUpload,
  ): Promise<UploadedTileImage> {
    const upload = await acceptUpload(ctx, file, 'TILE');
    return { tempImageName: upload.tempName, bytes: upload.bytes, md5: upload.md5, mimeType: upload.mimeType, expiresAt: upload.expiresAt };
  }

  @Mutation(() => SmartEntry, { description: 'Creates an entry in a library the caller publishes to (createSmartEntry).' })
  createSmartEntry(
    @Ctx() ctx: Context,
    @Arg('input', () => CreateSmartEntryInput, { description: 'The entry.' }) input: CreateSmartEntryInput,
  ): Promise<EntryRow> {
    return createSmartEntry(ctx, input);
  }
}

/** Endpoint 2 names its errors without the WS prefix, its service failure included. */
@Resolver()
@ServiceBoundary('SmartLibraryServiceException')
export class IngestionResolver {
  @Mutation(() => Boolean, {
    description:
      'Records a failure of the AI ingestion process on an entry: stores the error and adds one to aiIngestionFailures (updateSmartEntryAIIngestionFailure). System token with the ingestion scope.',
  })
  async updateSmartEntryAIIngestionFailure(
    @Ctx() ctx: Context,
    @Arg('smartEntryId', () => Int, { description: 'Id of the entry.' }) smartEntryId: number,
    @Arg('smartlibId', () => Int, { description: "Id of the entry's library." }) smartlibId: number,
    @Arg('cId', () => Int, { description: "Id of the library's company." }) cId: number,
    @Arg('aiIngestionError', () => String, {
      description: `The error, up to ${LIMITS.aiIngestionError} characters (a whole stack trace fits).`,
    })
    aiIngestionError: string,
  ): Promise<boolean> {
    await ctx.auth.requireSystem('ingestion');
    const failure = { smartEntryId, smartlibId, cId, aiIngestionError };
    checkIngestionFailure(failure);
    await recordIngestionFailure(ctx.em, failure);
    return true;
  }
}
