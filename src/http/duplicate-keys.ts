// A JSON object naming a key twice is refused (DESIGN: a field given twice is refused), where
// JSON.parse keeps the last one. Every JSON body passes here, so the common case costs one count:
// a parsed body holds one string (a key or a string value) for each string of its text unless a
// key was given twice, whose entry JSON.parse dropped. The strings of the text are its unescaped
// quotes halved (found with indexOf); those of the tree are counted walking it. Only when the
// counts differ is the text scanned token by token, to name the key.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export interface DuplicateKey {
  /** The key given twice. */
  key: string;
  /** Where, e.g. `input.smartEntryTags[2].smartTagName`. */
  path: string;
}

/** Quotes of the text that are not escaped: two for each string (outside strings valid JSON has no backslash). */
function quotesOf(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) count++;
  }
  return count;
}

/** Keys and string values of a parsed value; iterative, as a body may nest deeply. */
function stringsOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? 1 : 0;
  let count = 0;
  const pending: object[] = [value];
  while (pending.length) {
    const v = pending.pop()!;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'string') count++;
        else if (typeof item === 'object' && item !== null) pending.push(item);
      }
    } else {
      for (const key in v) {
        count++;
        const item: unknown = (v as Record<string, unknown>)[key];
        if (typeof item === 'string') count++;
        else if (typeof item === 'object' && item !== null) pending.push(item);
      }
    }
  }
  return count;
}

interface Frame {
  /** An object's keys so far; null for an array. */
  keys: Set<string> | null;
  path: string;
  /** The object's last key, or the array's index. */
  at: string | number;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** The first key an object of valid JSON text names twice, scanning its tokens. */
function scan(text: string): DuplicateKey | null {
  const stack: Frame[] = [];
  const childPath = () => {
    const parent = stack[stack.length - 1];
    if (!parent) return '';
    if (parent.keys) return parent.path ? `${parent.path}.${String(parent.at)}` : String(parent.at);
    return `${parent.path}[${parent.at as number}]`;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      let end = i + 1;
      while (text.charCodeAt(end) !== QUOTE) end += text.charCodeAt(end) === BACKSLASH ? 2 : 1;
      let next = end + 1;
      while (isSpace(text.charCodeAt(next))) next++;
      if (top?.keys && text[next] === ':') {
        const raw = text.slice(i, end + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (top.keys.has(key)) return { key, path: top.path ? `${top.path}.${key}` : key };
        top.keys.add(key);
        top.at = key;
        i = next;
      } else i = end;
    } else if (c === '{') stack.push({ keys: new Set(), path: childPath(), at: '' });
    else if (c === '[') stack.push({ keys: null, path: childPath(), at: 0 });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top && !top.keys) (top.at as number)++;
  }
  return null;
}

/** The first key given twice in an object of `text`, which parsed as `parsed`; null when there is none. */
export function duplicateKey(text: string, parsed: unknown): DuplicateKey | null {
  if (quotesOf(text) === 2 * stringsOf(parsed)) return null;
  return scan(text);
}
