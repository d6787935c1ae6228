// The sent lists' pages and cursors (notification.lists.ts reads by them; the GraphQL types
// hand out a record's cursor and bound pageSize by them).
import { invalidParameter } from '../../core/errors';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** Which list a cursor belongs to: its sort key is that list's. */
export type ListKind = 'sent' | 'sched';

/** A position in a list: the sort key of a record (its timestamp in microseconds since the epoch, as decimal text, and its id). */
export interface Keyset {
  us: string;
  id: number;
}

const MAX_ID = 2_147_483_647;
const CURSOR_TEXT = /^(sent|sched):(-?\d{1,16}):(\d{1,10})$/;

/**
 * The cursor of a record: base64url of `kind:microseconds:id`. Microseconds rather than
 * milliseconds, because rows written by SQL (`now()`) carry them and a key rounded to the
 * millisecond would repeat or skip records of the same millisecond.
 */
export function encodeCursor(kind: ListKind, us: string | bigint, id: number): string {
  return Buffer.from(`${kind}:${us}:${id}`, 'latin1').toString('base64url');
}

/** The cursor of a record whose timestamp is a JS Date (a record this process has just written). */
export function cursorOfDate(kind: ListKind, at: Date, id: number): string {
  return encodeCursor(kind, BigInt(at.getTime()) * 1000n, id);
}

/** The keyset of a cursor of this list; anything else (another list's cursor included) is WSInvalidParameterException naming `after`. */
export function decodeCursor(kind: ListKind, value: string): Keyset {
  const malformed = () => invalidParameter('after', 'after is not a cursor of this list.');
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw malformed();
  const m = CURSOR_TEXT.exec(Buffer.from(value, 'base64url').toString('latin1'));
  if (!m || m[1] !== kind) throw malformed();
  const us = BigInt(m[2]).toString();
  const id = Number(m[3]);
  // Only the canonical spelling is a cursor (no leading zeros, no stray base64 bits).
  if (id < 1 || id > MAX_ID || encodeCursor(kind, us, id) !== value) throw malformed();
  return { us, id };
}
