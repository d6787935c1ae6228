// SmartFile as a Node, keyed by smartFileId. node(id:) answers the files of the entries the caller
// may read, as SmartEntry.smartFiles hands them out to every reader of the library (originals
// included: the record, not its bytes). Query.smartFile's stricter rule is the download's: it
// decides who streams an original's bytes, and stays where it is. Two statements for any number of
// ids: the files (the request's smartFileDownload loader, which Query.smartFile shares) and the
// caller's right to their libraries (the readableLibraries loader).
import { nodeIntKey, type NodeType } from '../../graphql/node';
import type { Context } from '../../context';
import { readableLibrary } from './library.access';
import type { FileRow } from './library.sql';

export const smartFileNode: NodeType = {
  key: (file: FileRow) => String(file.smartFileId),
  async load(keys, ctx: Context) {
    const ids = keys.map(nodeIntKey);
    const files = await ctx.loaders.smartFileDownload.loadMany(ids.filter((id): id is number => id !== null));
    const byId = new Map(files.flatMap((f) => (f && !(f instanceof Error) ? [[f.smartFileId, f] as const] : [])));
    return Promise.all(
      ids.map(async (id) => {
        const file = id === null ? undefined : byId.get(id);
        return file && (await readableLibrary(ctx, file.library)) ? file : null;
      }),
    );
  },
};
