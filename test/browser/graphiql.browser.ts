// The schema explorer in a real browser (npm run test:browser; not part of npm test): Debian's
// chromium, driven by playwright-core, against the service over the demo tenant on PostgreSQL,
// signing in through the explorer's own form and running the home-screen query as Olivia,
// with the network closed to everything but the service. Any request the page makes to another
// origin is aborted and fails the test, and so does a Content-Security-Policy violation or an
// uncaught error in the page. It runs the bundle `npm run build` wrote (dist/explorer), which
// test:browser builds first. The screenshot of the result is kept in test/browser/artifacts/.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { useTestApp, DEMO, OLIVIA } from '../kit';
import { HOME_SCREEN_QUERY } from '../../src/graphql/examples';
import { INITIAL_HEADERS } from '../../src/explorer/page/fetcher';

/** Debian's chromium (apt-get install chromium; .ci/run installs it when missing). */
const CHROMIUM = '/usr/bin/chromium';
/** Without the background-networking flags chromium reaches for Google's hosts at every start. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOT = path.join(__dirname, 'artifacts', 'graphiql.png');

const t = useTestApp({ demo: true });

/** What a page did that it must not: requests to other origins, CSP violations, uncaught errors. */
interface Trouble {
  outside: string[];
  csp: string[];
  errors: string[];
}

let browser: Browser;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh browser context whose network ends at the service: every other request is aborted and recorded. */
async function openOffline(pathname: string): Promise<{ context: BrowserContext; page: Page; trouble: Trouble }> {
  const trouble: Trouble = { outside: [], csp: [], errors: [] };
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  context.setDefaultTimeout(30_000);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === t.baseUrl) return route.continue();
    trouble.outside.push(url);
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => trouble.errors.push(err.message));
  await page.exposeFunction('reportCspViolation', (text: string) => trouble.csp.push(text));
  // In the page (which has the DOM this test's TypeScript does not know).
  await page.addInitScript(() => {
    const g = globalThis as any;
    g.document.addEventListener('securitypolicyviolation', (e: any) => g.reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const res = await page.goto(t.baseUrl + pathname);
  expect(res?.status()).toBe(200);
  return { context, page, trouble };
}

/**
 * The text of one of GraphiQL's editors: the operation, the request headers or the response. Read
 * from its Monaco model (GraphiQL keeps Monaco at globalThis.__MONACO): the pane draws only the
 * lines in view.
 */
function editorText(page: Page, editor: 'operation.graphql' | 'request-headers.json' | 'response.json'): Promise<string> {
  return page.evaluate((suffix) => {
    const monaco = (globalThis as any).__MONACO;
    return monaco.editor
      .getModels()
      .find((m: any) => m.uri.path.endsWith(`-${suffix}`))
      .getValue();
  }, editor);
}

/** Clicks the run button and waits until the response editor holds `expected`. */
async function run(page: Page, expected: string): Promise<string> {
  await page.locator('.graphiql-execute-button').click();
  await page.waitForFunction(
    (text) =>
      (globalThis as any).__MONACO.editor
        .getModels()
        .find((m: any) => m.uri.path.endsWith('-response.json'))
        .getValue()
        .includes(text),
    expected,
  );
  return editorText(page, 'response.json');
}

/** The x-service-authtoken of the header editor. */
async function headerToken(page: Page): Promise<string> {
  return JSON.parse(await editorText(page, 'request-headers.json'))['x-service-authtoken'];
}

/** Fills the sign-in form (top right) and submits it. */
async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('/graphiql with the network closed to everything but the service', () => {
  let context: BrowserContext;
  let page: Page;
  let trouble: Trouble;

  beforeAll(async () => {
    ({ context, page, trouble } = await openOffline('/graphiql'));
    await page.locator('.graphiql-query-editor .monaco-editor').waitFor();
  });
  afterAll(async () => {
    await context?.close();
  });
  afterEach(() => {
    expect(trouble).toEqual({ outside: [], csp: [], errors: [] });
  });

  it('opens with the home-screen query and an empty x-service-authtoken header', async () => {
    expect(await editorText(page, 'operation.graphql')).toBe(HOME_SCREEN_QUERY);
    expect(await editorText(page, 'request-headers.json')).toBe('{"x-service-authtoken": ""}');
    // The sign-in form stands where GraphiQL's logo (a link to GitHub) would.
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    expect(await page.locator('.graphiql-logo-link').count()).toBe(0);
    // The schema arrived (introspection through the page's fetcher): the documentation explorer lists the root types.
    const docs = page.getByRole('button', { name: /documentation explorer/i });
    await docs.click();
    await page.locator('.graphiql-doc-explorer', { hasText: 'Query' }).waitFor();
    await docs.click();
    await page.locator('.graphiql-doc-explorer').waitFor({ state: 'detached' });
  });

  it('when the password is wrong, then the form shows the identifier and the header stays empty', async () => {
    await submitSignIn(page, 'olivia@demo.example', 'Not-Her-Passw0rd!');
    await page.locator('.explorer-session-error', { hasText: 'invalid_grant: The username or password is incorrect.' }).waitFor();
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await editorText(page, 'request-headers.json')).toBe(INITIAL_HEADERS);
  });

  it('signs Olivia in through the form, fills the header and runs the home-screen query as her', async () => {
    await submitSignIn(page, 'olivia@demo.example', DEMO.password);
    await page.getByText(`Signed in as olivia@demo.example (user ${OLIVIA})`).waitFor();
    const token = await headerToken(page);
    expect(await editorText(page, 'request-headers.json')).toBe(`{"x-service-authtoken": "${token}"}`);
    expect(await t.as(token).rest('GET', '/rest/user/session')).toMatchObject({ status: 200, body: { userId: OLIVIA } });
    await expect(page.locator('.explorer-session-error').count()).resolves.toBe(0);
    // Neither the password nor the token is in the browser's storage.
    const stored = await page.evaluate(() => {
      const g = globalThis as any;
      return JSON.stringify([{ ...g.localStorage }, { ...g.sessionStorage }]);
    });
    expect([stored.includes(DEMO.password), stored.includes(token)]).toEqual([false, false]);

    const response = await run(page, '"companyName"');
    expect(response).toContain('"companyName": "Northwind Health"');
    expect(response).toContain('"hasNextPage": true');
    expect(response).toContain('"smartEntryName": "Welcome pack"');
    expect(JSON.parse(response).errors).toBeUndefined();
    // The result pane shows it (Monaco draws only the lines in view: the first connection's).
    await page.locator('.graphiql-response', { hasText: '"companyName"' }).waitFor();
    fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
  });

  it('gives a new tab the signed-in token', async () => {
    const token = await headerToken(page);
    await page.locator('.graphiql-tab-add').click();
    await page.waitForFunction(
      (expected) =>
        (globalThis as any).__MONACO.editor
          .getModels()
          .find((m: any) => m.uri.path.endsWith('-request-headers.json'))
          .getValue() === expected,
      `{"x-service-authtoken": "${token}"}`,
    );
    await page.getByText(`Signed in as olivia@demo.example (user ${OLIVIA})`).waitFor();
  });

  it('runs a mutation typed into the operation editor', async () => {
    await page.locator('.graphiql-query-editor .monaco-editor').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    const mutation = `mutation explorerInterests { updateUserProfile(input: { uId: ${OLIVIA}, uInterests: "Offline explorers" }) { updatedFieldCount } }`;
    await page.keyboard.type(mutation);
    expect(await editorText(page, 'operation.graphql')).toBe(mutation);
    // GraphiQL reads the operation name once the editor has settled: the tab shows it.
    await page.locator('.graphiql-tab-active', { hasText: 'explorerInterests' }).waitFor();

    const response = await run(page, 'updatedFieldCount');
    expect(JSON.parse(response)).toEqual({ data: { updateUserProfile: { updatedFieldCount: 1 } } });
    expect(await t.row('app_user', { u_id: OLIVIA })).toMatchObject({ interests: 'Offline explorers' });
  });

  it('signs out: the token is revoked and the header emptied', async () => {
    const token = await headerToken(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await editorText(page, 'request-headers.json')).toBe(INITIAL_HEADERS);
    expect(await t.as(token).rest('GET', '/rest/user/session')).toMatchObject({
      status: 401,
      body: { errorCode: 'WSInvalidAuthTokenException' },
    });
  });
});

describe('the /graphql landing page with the network closed', () => {
  it('cannot load Sandbox from the CDN and links to /graphiql, which opens the explorer', async () => {
    const { context, page, trouble } = await openOffline('/graphql');
    try {
      const link = page.getByRole('link', { name: '/graphiql' });
      await link.waitFor({ state: 'visible' });
      // The landing page reached out only for Apollo's CDN (Sandbox, its fonts), and its own
      // script failed for want of Sandbox.
      expect(trouble.outside.length).toBeGreaterThan(0);
      expect(trouble.outside.filter((url) => !/^https:\/\/[a-z.-]*(apollographql\.com|fonts\.googleapis\.com)\//.test(url))).toEqual([]);
      expect(trouble.errors).toEqual(['window.EmbeddedSandbox is not a constructor']);
      expect(trouble.csp).toEqual([]);
      const landing = { ...trouble, outside: [...trouble.outside], errors: [...trouble.errors] };

      // Clickable: the empty Sandbox frame does not cover it (the click would wait for that).
      await link.click();
      await page.waitForURL(`${t.baseUrl}/graphiql`);
      await page.locator('.graphiql-query-editor .monaco-editor').waitFor();
      expect(trouble).toEqual(landing);
    } finally {
      await context.close();
    }
  });
});
