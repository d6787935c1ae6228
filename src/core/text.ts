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
