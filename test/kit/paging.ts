// Walking a cursor connection both ways, as a Relay client does: forward with first/after until
// hasNextPage is false, backward with last/before until hasPreviousPage is false. walkBothWays
// checks the walks against the list the test expects: the forward pages are that list in order,
// the backward pages the same edges (nodes and cursors) in reverse page order, and every page's
// pageInfo is exact (docs/api/graph.md, "Cursor connections").

export interface PageInfoShape {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface PageShape<N> {
  edges: { cursor: string; node: N }[];
  pageInfo: PageInfoShape;
}

/** A connection's answer with no edges: `totalCount` in all, and whether edges stand before this page. */
export const withoutEdges = (totalCount: number, hasPreviousPage = false) => ({
  totalCount,
  pageInfo: { hasNextPage: false, hasPreviousPage, startCursor: null, endCursor: null },
  edges: [],
});

/** The paging arguments of one read: first/after, or last/before. */
export type PagingVariables = { first: number; after: string | null } | { last: number; before: string | null };

/**
 * Walks the connection `read` answers forward and backward, `size` edges a page, and checks both
 * walks against `expected` (the list's nodes in its order, at least one): the pages the walks must
 * give, and their pageInfo. Answers the pages read, forward and backward, in the order read.
 */
export async function walkBothWays<N, P extends PageShape<N>>(
  read: (variables: PagingVariables) => Promise<P>,
  size: number,
  expected: readonly N[],
): Promise<{ forward: P[]; backward: P[] }> {
  const n = expected.length;
  const most = Math.ceil(n / size) + 1;
  /** The pages one way, each read from the cursor the previous one ends at, to the last (or `most`). */
  const walk = async (forward: boolean): Promise<P[]> => {
    const pages: P[] = [];
    for (let cursor: string | null = null; pages.length < most;) {
      const page = await read(forward ? { first: size, after: cursor } : { last: size, before: cursor });
      pages.push(page);
      if (!(forward ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage)) break;
      cursor = forward ? page.pageInfo.endCursor : page.pageInfo.startCursor;
    }
    return pages;
  };
  const forward = await walk(true);
  const backward = await walk(false);
  const edges = forward.flatMap((p) => p.edges);
  expect(edges.map((e) => e.node)).toEqual(expected);
  // Backward: the same edges, cursors included, the pages in reverse order.
  expect([...backward].reverse().flatMap((p) => p.edges)).toEqual(edges);
  const pages = Math.ceil(n / size);
  const cursorAt = (i: number) => edges[i].cursor;
  expect(forward.map((p) => p.pageInfo)).toEqual(
    Array.from({ length: pages }, (_, k) => ({
      hasNextPage: (k + 1) * size < n,
      hasPreviousPage: k > 0,
      startCursor: cursorAt(k * size),
      endCursor: cursorAt(Math.min(n, (k + 1) * size) - 1),
    })),
  );
  // Backward page j ends right before the edge page j - 1 starts with (the list's end for j = 0).
  expect(backward.map((p) => p.pageInfo)).toEqual(
    Array.from({ length: pages }, (_, j) => ({
      hasNextPage: j > 0,
      hasPreviousPage: n - (j + 1) * size > 0,
      startCursor: cursorAt(Math.max(0, n - (j + 1) * size)),
      endCursor: cursorAt(n - j * size - 1),
    })),
  );
  return { forward, backward };
}

/** The messages and fields of the paging errors, as pageRequest words them (WSInvalidParameterException). */
export const PAGING_ERRORS = {
  first: { message: 'first must be from 1 to 100.', field: 'first' },
  last: { message: 'last must be from 1 to 100.', field: 'last' },
  both: { message: 'first and last may not be given together.', field: 'last' },
  after: { message: 'after is not a cursor of this list.', field: 'after' },
  before: { message: 'before is not a cursor of this list.', field: 'before' },
} as const;
