// The documented limits of the smart library (docs/api/library.md, "Limits"). The spec gives none.
// The input rules (library.inputs.ts), the entity columns (library.entity.ts,
// entry-content.entity.ts, taxonomy.entity.ts, upload.entity.ts) and the descriptions read
// them, so each bound is stated here once.
import { lengthNotes } from '../../graphql/rules';

export const LIMITS = {
  /** Items per entry in one request; more is WSLimitExceededException. */
  tagsPerEntry: 20,
  foldersPerEntry: 20,
  filtersPerEntry: 20,
  categoriesPerEntry: 20,
  urlsPerEntry: 10,
  /** Field lengths (WSFieldLengthException beyond). */
  entryName: 255,
  entryDesc: 2000,
  entryAuthors: 500,
  url: 2048,
  urlName: 255,
  tagName: 100,
  folderName: 255,
  filterName: 100,
  categoryName: 100,
  filename: 255,
  /** tempFilename / tempImageName as uploadSmartFile and uploadTileImage issue them (the column's length). */
  tempName: 64,
  /** aiIngestionError: a whole stack trace fits; longer is InvalidParameterException. */
  aiIngestionError: 100_000,
} as const;

/** A field's bound, in the words the input rules are described in. */
export const atMost = lengthNotes(LIMITS);

/** The codes of an entry's flags (its Y/N fields: the input fields whose rule is a oneOf of these). */
export const YES_NO = ['Y', 'N'] as const;
export type YesNo = (typeof YES_NO)[number];

/** Temporary uploads expire this long after the upload. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** Image types a tile may be (and that thumbnails are made from). */
export const TILE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** smartEntryType values and the content types each accepts; URL entries carry no upload. */
export const ENTRY_TYPES: Record<string, string[] | null> = {
  URL: null,
  IMG: TILE_TYPES,
  PDF: ['application/pdf'],
  DOC: [
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  ],
  VID: ['video/mp4', 'video/quicktime', 'video/webm'],
  AUD: ['audio/mpeg', 'audio/mp4', 'audio/x-m4a', 'audio/wav', 'audio/ogg'],
};
