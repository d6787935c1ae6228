// The schema explorer (served at /graphiql, bundled by scripts/build-explorer.ts): GraphiQL 5
// against this service's /graphql. It opens with the home-screen query and the
// x-service-authtoken header to fill in; headers are not kept in the browser's storage.
// Plain TypeScript (React.createElement, no JSX), checked by ./tsconfig.json.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import './page.css';
import { HOME_SCREEN_QUERY } from '../../graphql/examples';
import { createLiveFetcher, INITIAL_HEADERS } from './fetcher';
import { installMonacoWorkers } from './workers';

installMonacoWorkers();

const container = document.getElementById('graphiql');
if (!container) throw new Error('The explorer page has no #graphiql element.');
createRoot(container).render(
  createElement(GraphiQL, {
    fetcher: createLiveFetcher(new URL('/graphql', window.location.href).href),
    defaultQuery: HOME_SCREEN_QUERY,
    defaultHeaders: INITIAL_HEADERS,
    defaultEditorToolsVisibility: 'headers',
    shouldPersistHeaders: false,
  }),
);
