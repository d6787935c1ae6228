// A live session ends at its token's expiry (24 h after the token's last use, the sliding expiry
// that the service documents), and not before: a token used meanwhile has slid forward and the session goes on.
// The day passes on jest's clock (timers and Date); the database and the token cache are real.
import pino from 'pino';
import { createUser, tokenFor, useTestApp } from '../kit';
import { LiveSessions, type EndReason } from '../../src/http/live-sessions';
import { buildContext } from '../../src/context';
import { hashToken, SERVICE_TOKEN_TTL_MS } from '../../src/modules/identity/tokens';
import { contextParts } from '../../src/core/module';
import { MODULES } from '../../src/modules';
import { ROUTES } from '../kit/routes';

const t = useTestApp();
const logger = pino({ level: 'silent' });
const deps = () => ({ config: t.config, logger, em: t.orm.em, services: t.app.services, parts: contextParts(MODULES) });

/** Lets the session's asynchronous check (cache, then database) finish: up to 1 s of real time. */
async function settle(until: () => boolean = () => false): Promise<void> {
  const start = process.hrtime.bigint();
  while (!until() && process.hrtime.bigint() - start < 1_000_000_000n) await new Promise((r) => setImmediate(r));
}

let sessions: LiveSessions;
afterEach(() => {
  sessions?.closeAll();
  jest.useRealTimers();
});

const HOUR = 60 * 60 * 1000;

/** The token's expiry as stored. */
const storedExpiry = async (token: string) => {
  const [row] = await t.sql('select (extract(epoch from expires_at) * 1000)::bigint as ms from service_auth_token where token_hash = ?', [
    hashToken(token),
  ]);
  return Number(row.ms);
};

async function openedSession(): Promise<{ token: string; ended: EndReason[]; openedAt: number }> {
  const { uId } = await createUser(t.orm);
  const token = await tokenFor(t.orm, uId);
  sessions = new LiveSessions(deps(), ROUTES);
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime'], now: Date.now() });
  const ended: EndReason[] = [];
  const openedAt = Date.now();
  await sessions.open(token, (reason) => ended.push(reason));
  return { token, ended, openedAt };
}

it('a session whose token is not used again ends when the token expires, 24 h after its last use', async () => {
  const { token, ended } = await openedSession();
  jest.advanceTimersByTime(SERVICE_TOKEN_TTL_MS - 1000);
  await settle();
  expect(ended).toEqual([]);
  jest.advanceTimersByTime(2000);
  await settle(() => ended.length > 0);
  expect(ended).toEqual(['revoked']);
  // The token itself is refused from then on.
  const ctx = buildContext(deps(), 'r', { 'x-service-authtoken': token }, logger);
  await expect(ctx.auth.requireUser()).rejects.toMatchObject({ code: 'WSInvalidAuthTokenException' });
});

it('a session whose token was used meanwhile goes on past the first expiry, and ends 24 h after that use', async () => {
  const { token, ended, openedAt } = await openedSession();
  jest.advanceTimersByTime(12 * HOUR);
  // A request with the token, 12 h in: its expiry slides to 36 h.
  const ctx = buildContext(deps(), 'r', { 'x-service-authtoken': token }, logger);
  await ctx.auth.requireUser();
  jest.advanceTimersByTime(12 * HOUR + 1000);
  await settle();
  expect(ended).toEqual([]);
  jest.advanceTimersByTime(12 * HOUR - 2000);
  await settle();
  expect(ended).toEqual([]);
  jest.advanceTimersByTime(2000);
  await settle(() => ended.length > 0);
  expect(ended).toEqual(['revoked']);
  // The session's own look at 24 h did not move the expiry: it is the 12 h use's.
  expect(await storedExpiry(token)).toBe(openedAt + 36 * HOUR);
});
