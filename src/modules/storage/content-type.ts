// What a file is, from its magic bytes (never from its name or the client's Content-Type).
// file-type is ESM-only, so it is loaded with import() once.
type FileTypeModule = typeof import('file-type');

let loading: Promise<FileTypeModule> | undefined;

export interface DetectedType {
  ext: string;
  mime: string;
}

export async function detectType(head: Buffer): Promise<DetectedType | undefined> {
  loading ??= import('file-type');
  const { fileTypeFromBuffer } = await loading;
  const found = await fileTypeFromBuffer(head);
  return found ? { ext: found.ext, mime: found.mime } : undefined;
}
