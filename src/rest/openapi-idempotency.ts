// What the OpenAPI document says of Idempotency-Key (idempotency.ts) on each route that takes it:
// the request header, the replay marker on the success answer, and the 409 and 422 of a key in use.
import { IDEMPOTENCY_LIMITS, KEY_HEADER, REPLAYED_HEADER } from '../http/idempotency';

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'IETF Idempotency-Key: a key of your own (a UUID) for this one request, to send again with a retry. The first answer (2xx) ' +
    'is kept for 24 hours per caller and key, with the write it reports, and a repeat of the same request is answered it again, ' +
    `with ${REPLAYED_HEADER}: true, without running. A failed request keeps nothing: a corrected retry may use the same key. ` +
    `1 to ${IDEMPOTENCY_LIMITS.key} printable ASCII characters, bare or as a quoted string (the draft's form); another value is 400.`,
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_LIMITS.key + 2 },
};

export const IDEMPOTENT_REPLAYED_HEADER = {
  description: `"true" on an answer replayed for a repeat of an ${KEY_HEADER} (not sent on a first answer).`,
  schema: { type: 'string', enum: ['true'] },
};

const KEY_IN_USE = `WSInvalidParameterException naming ${KEY_HEADER}: a request with this key is still running`;
const KEY_OF_ANOTHER = `WSInvalidParameterException naming ${KEY_HEADER}: the key was used with another request (method, path, query or body)`;

type Responses = Record<string, { description: string; content?: unknown; headers?: Record<string, unknown> } | undefined>;

/** Adds the header, the replay marker and the 409 and 422 to a route's operation. */
export function documentIdempotencyKey(
  op: { parameters?: unknown },
  responses: Record<string, unknown>,
  success: string,
  errorContent: unknown,
) {
  const r = responses as Responses;
  op.parameters = [...((op.parameters as unknown[]) ?? []), { $ref: '#/components/parameters/IdempotencyKey' }];
  const ok = r[success];
  if (ok) ok.headers = { ...ok.headers, [REPLAYED_HEADER]: { $ref: '#/components/headers/IdempotentReplayed' } };
  const conflict = r['409'];
  r['409'] = conflict
    ? { ...conflict, description: `${conflict.description}; ${KEY_IN_USE}` }
    : { description: KEY_IN_USE, content: errorContent };
  r['422'] = { description: KEY_OF_ANOTHER, content: errorContent };
}
