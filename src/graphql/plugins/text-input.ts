// Text is text on /graphql too: a string variable, operation name or string literal of the
// document that holds a NUL (PostgreSQL's text cannot) or an unpaired surrogate (not UTF-8) is
// refused before execution with WSInvalidParameterException naming the field, status 400, as
// REST and JSON bodies refuse it (src/http/json-body.ts, src/rest/decode.ts). It covers what the
// body parser does not see: GET's query parameters, multipart operations, and `\u0000` escapes
// inside the document's own strings.
import type { ApolloServerPlugin } from '@apollo/server';
import { BREAK, visit, type DocumentNode } from 'graphql';
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import { firstBadText, isText } from '../../core/text';

/** Documents already looked at (Apollo's document store hands out the same parsed document for the same text). */
const literals = new WeakMap<DocumentNode, string | null>();

/** The argument or input field holding the first string literal that is not text. */
function badLiteral(document: DocumentNode): string | null {
  const known = literals.get(document);
  if (known !== undefined) return known;
  const found = findBadLiteral(document);
  literals.set(document, found);
  return found;
}

function findBadLiteral(document: DocumentNode): string | null {
  let found: string | null = null;
  const names: string[] = [];
  visit(document, {
    Argument: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
    ObjectField: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
    StringValue(node) {
      if (isText(node.value)) return undefined;
      found = names.at(-1) ?? 'query';
      return BREAK;
    },
  });
  return found;
}

function refuse(field: string): never {
  const err = new ServiceError(
    'WSInvalidParameterException',
    `${field} holds a character that is not text (NUL or an unpaired surrogate).`,
    {
      field,
    },
  );
  // Apollo takes the status of an error raised before execution from here.
  (err.extensions as Record<string, unknown>).http = { status: 400 };
  throw err;
}

export function textInputPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operationName }) {
          if (operationName && !isText(operationName)) refuse('operationName');
          const variable = request.variables ? firstBadText(request.variables, 'variables') : null;
          if (variable) refuse(variable);
          const literal = badLiteral(document);
          if (literal) refuse(literal);
        },
      };
    },
  };
}
