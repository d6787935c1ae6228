// The JSON body parser /graphql and /rest share: JSON only, UTF-8, at most 1 MB (larger bodies
// answer 413 through the error handler).
import { bodyParser } from '@koa/bodyparser';

export const jsonBody = bodyParser({ enableTypes: ['json'], jsonLimit: '1mb', encoding: 'utf-8' });
