// A request as Apollo Server hands it to a gateway executor (src/graphql/jit-executor.ts), for
// tests of the executor on a schema of their own.
import { createHash } from 'node:crypto';
import { getOperationAST, parse } from 'graphql';

export function gatewayRequest(source: string, variables: Record<string, unknown> = {}) {
  const document = parse(source);
  return {
    request: { query: source, variables },
    document,
    source,
    operation: getOperationAST(document, null)!,
    operationName: null,
    queryHash: createHash('sha256').update(source).digest('hex'),
    context: {},
  } as never;
}
