// useTestApp(): the test app of a test file (or of a describe block). It registers the
// beforeAll that starts the app and the afterAll that stops it, and returns a handle that
// stands for the started app inside tests and hooks: `const t = useTestApp(); ... t.rest(...)`.
import { clientWith, startTestApp, startWithoutDatabase, type NewUser, type TestApp, type TestAppOptions } from './app';
import { createUserAddress } from './factories';
import { callerOf, type Caller } from './caller';
import { CARA, DEMO, IAN, OLIVIA, OMAR, PAT } from './demo';

export interface UseTestAppOptions extends TestAppOptions {
  /** A second instance on this app's database (not seeded again; stopped before it). */
  alongside?: TestApp;
}

/** The apps this test file started, in order (Jest loads the kit afresh for every file). */
const open: TestApp[] = [];

async function closeFrom(app: TestApp): Promise<void> {
  // Later apps first: a second instance stops before the database it shares is dropped.
  while (open.includes(app)) await open.pop()!.close();
}

/** Options may be a function, for values known only once other hooks have run (a port, a server's URL). */
export function useTestApp(options: UseTestAppOptions | (() => UseTestAppOptions | Promise<UseTestAppOptions>) = {}): TestApp {
  let current: TestApp | undefined;
  /** Callers made at the top of the file: their tokens are stored once the app starts, before any test runs. */
  const early: Caller[] = [];
  const closing: (() => unknown)[] = [];
  beforeAll(async () => {
    const { alongside, ...rest } = typeof options === 'function' ? await options() : options;
    current = await startTestApp({ ...rest, db: rest.db ?? alongside?.db });
    open.push(current);
    for (const fn of closing) current.onClose(fn);
    for (const caller of early) await caller.token();
  });
  afterAll(async () => {
    if (current) await closeFrom(current);
  });
  const started = (): TestApp => {
    if (!current) throw new Error('useTestApp: the app starts in beforeAll; use it inside tests and hooks');
    return current;
  };
  const handle: TestApp = new Proxy({} as TestApp, {
    get(_target, key) {
      // A caller may be made at the top of the file; it reaches the app when it is used.
      if (key === 'as') {
        return (who: Parameters<TestApp['as']>[0]) => {
          const caller = callerOf(started, who);
          if (!current) early.push(caller);
          return caller;
        };
      }
      if (key === 'with') return (headers: Record<string, string>) => clientWith(handle, headers);
      if (key === 'onClose' && !current) return (fn: () => unknown) => void closing.push(fn);
      if (key === 'then') return undefined;
      // The app's members are closures (they never use `this`), so they may be handed out alone.
      return Reflect.get(started(), key);
    },
  });
  return handle;
}

/** The demo tenant's people as callers of one app, and the app (see useDemoApp). */
export interface DemoApp {
  t: TestApp;
  olivia: Caller;
  ian: Caller;
  cara: Caller;
  omar: Caller;
  pat: Caller;
  /** Cara (administrator of Northwind) with Northwind's active company API key. */
  admin: Caller;
}

/**
 * useTestApp() with the demo tenant's people as its callers, each made once, when first named:
 * `const { t, olivia, cara } = useDemoApp();` (named at the top of the file, a caller's token is
 * stored when the app starts, as with `t.as(OLIVIA)`).
 */
export function useDemoApp(options?: Parameters<typeof useTestApp>[0]): DemoApp {
  const t = useTestApp(options);
  const made = new Map<string, Caller>();
  const once = (name: string, make: () => Caller): Caller => {
    if (!made.has(name)) made.set(name, make());
    return made.get(name)!;
  };
  return {
    t,
    get olivia() {
      return once('olivia', () => t.as(OLIVIA));
    },
    get ian() {
      return once('ian', () => t.as(IAN));
    },
    get cara() {
      return once('cara', () => t.as(CARA));
    },
    get omar() {
      return once('omar', () => t.as(OMAR));
    },
    get pat() {
      return once('pat', () => t.as(PAT));
    },
    get admin() {
      return once('admin', () => this.cara.with({ 'x-service-company-api-key': DEMO.companyApiKey }));
    },
  };
}

/**
 * For a describe block whose tests must change nothing: reads once before its tests (after the
 * block's beforeAll hooks declared above this call) and expects the same after each test.
 */
export function expectUnchangedAfterEach(read: () => Promise<unknown>): void {
  let before: unknown;
  beforeAll(async () => {
    before = await read();
  });
  afterEach(async () => {
    expect(await read()).toEqual(before);
  });
}

/**
 * For a describe block whose tests must leave one address as it was: a new user with one address,
 * made before the block's tests, and the check after each test that the address's row is unchanged.
 */
export function anUnchangedAddress(t: TestApp): { readonly user: NewUser; readonly uuid: string } {
  const made = {} as { user: NewUser; uuid: string };
  beforeAll(async () => {
    made.user = await t.newUser();
    made.uuid = (await createUserAddress(t.orm, made.user.uId)).uuid;
  });
  expectUnchangedAfterEach(() => t.row('user_address', { uuid: made.uuid }));
  return made;
}

/** The service over a database that never answers (startWithoutDatabase), for this file or describe block. */
export function useWithoutDatabase(): { readonly baseUrl: string } {
  let started: Awaited<ReturnType<typeof startWithoutDatabase>> | undefined;
  beforeAll(async () => {
    started = await startWithoutDatabase();
  });
  afterAll(() => started?.close());
  return {
    get baseUrl() {
      if (!started) throw new Error('useWithoutDatabase: the service starts in beforeAll');
      return started.baseUrl;
    },
  };
}
