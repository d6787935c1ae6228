// The fields of SmartFile that are not its own columns: its entry's id and where it is downloaded.
// The roots are file rows (library.sql.ts).
import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { SmartFile } from './entry-content.entity';
import type { FileRow } from './library.sql';

@Resolver(() => SmartFile)
export class SmartFileFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the file's entry." })
  smartEntryId(@Root() file: FileRow): number {
    return file.entry;
  }

  @FieldResolver(() => String, { description: 'Where the file is downloaded (GET, with x-service-authtoken).' })
  downloadUrl(@Root() file: FileRow, @Ctx() ctx: Context): string {
    return `${ctx.config.publicBaseUrl}/rest/smartlib/files/${file.smartFileId}/content`;
  }
}
