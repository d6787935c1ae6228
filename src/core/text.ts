// Text as PostgreSQL and the specification count it: in characters (code points), never in
// UTF-16 units, so a bound checked here is the bound the column holds.

/** Characters as PostgreSQL counts them (code points, not UTF-16 units). */
export function charLength(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The longest start of `text` of at most `max` characters, never splitting a character. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/**
 * Whether a decoded string is text the service takes: no NUL (PostgreSQL's text cannot hold it)
 * and no unpaired surrogate (it cannot be encoded as UTF-8: PostgreSQL would store U+FFFD).
 */
export function isText(value: string): boolean {
  return !value.includes('\0') && value.isWellFormed();
}

/**
 * The name of the first string in a decoded JSON value (keys included) that is not text (isText),
 * as errors name fields: the property holding it (an array's item is named by its array's
 * property), `fallback` at the top. Null when every string is text. Iterative: nesting depth does
 * not matter.
 */
export function firstBadText(value: unknown, fallback = 'body'): string | null {
  const stack: [unknown, string][] = [[value, fallback]];
  while (stack.length) {
    const [v, name] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isText(v)) return name;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push([item, name]);
    } else if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      for (const [k, item] of Object.entries(v)) {
        if (!isText(k)) return name;
        stack.push([item, k]);
      }
    }
  }
  return null;
}

/** A parameter of a form or query string whose value is not text: its percent-escapes are not UTF-8, or it holds a NUL. */
export class NotText extends Error {
  constructor(readonly field: string) {
    super(`${field} is not valid text.`);
  }
}

/**
 * The name=value pairs of an application/x-www-form-urlencoded text (a form body or a query
 * string), decoded strictly: where URLSearchParams replaces percent-escapes that are not UTF-8
 * with U+FFFD, this throws NotText naming the parameter (also for a NUL or an unpaired surrogate).
 */
export function formPairs(raw: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    const name = strictDecode(rawName);
    if (name === null) throw new NotText('parameter name');
    const value = strictDecode(rawValue);
    if (value === null) throw new NotText(name);
    pairs.push([name, value]);
  }
  return pairs;
}

function strictDecode(component: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return null;
  }
  return isText(decoded) ? decoded : null;
}
