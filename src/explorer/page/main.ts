// The schema explorer (served at /graphiql, bundled by scripts/build-explorer.ts): GraphiQL 5
// against this service's /graphql. It opens with the home-screen query and the
// x-service-authtoken header, which the sign-in form at the top right fills (sign-in.ts); headers
// are not kept in the browser's storage. Plain TypeScript (React.createElement, no JSX), checked
// by ./tsconfig.json.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import './page.css';
import { HOME_SCREEN_QUERY } from '../../graphql/examples';
import { createLiveFetcher, INITIAL_HEADERS } from './fetcher';
import { DEFAULT_TOKEN_PATH } from './session';
import { SignIn } from './sign-in';
import { installMonacoWorkers } from './workers';

installMonacoWorkers();

/** The token endpoint's path, which the page's route names (it lies under AUTH_BASE_URL's path). */
const tokenPath = document.querySelector<HTMLMetaElement>('meta[name="explorer-token-endpoint"]')?.content || DEFAULT_TOKEN_PATH;

const container = document.getElementById('graphiql');
if (!container) throw new Error('The explorer page has no #graphiql element.');
createRoot(container).render(
  createElement(
    GraphiQL,
    {
      fetcher: createLiveFetcher(new URL('/graphql', window.location.href).href),
      defaultQuery: HOME_SCREEN_QUERY,
      defaultHeaders: INITIAL_HEADERS,
      defaultEditorToolsVisibility: 'headers',
      shouldPersistHeaders: false,
    },
    // In place of GraphiQL's logo (a link to GitHub): the sign-in form.
    createElement(GraphiQL.Logo, null, createElement(SignIn, { origin: window.location.origin, tokenPath })),
  ),
);
