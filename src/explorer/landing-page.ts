// The /graphql landing page links to the bundled explorer. Apollo's page loads Sandbox from
// Apollo's CDN; without the internet it shows only its fallback text ("Apollo Sandbox cannot be
// loaded; it appears that you might be offline"). This wraps the landing-page plugin and adds,
// to that fallback, a link to /graphiql, which needs no internet. The fallback sits under the
// (then empty) Sandbox frame, so a style, under the page's own CSP nonce, hides the frame while
// it is empty: the link can be clicked, and a loaded Sandbox still covers the fallback.
import type { ApolloServerPlugin, BaseContext, LandingPage } from '@apollo/server';
import { EXPLORER_PATH } from './bundle';

/** The end of Apollo's fallback paragraph (the embedded Sandbox or Explorer page). */
const FALLBACK_END = 'it appears that you might be offline.</p>';

export const EXPLORER_LINK_HTML =
  `<p class="explorer-link">Offline? Use the bundled explorer at <a href="${EXPLORER_PATH}">${EXPLORER_PATH}</a>: ` +
  'it needs no internet.</p>';

/** Apollo's landing page with the explorer link in its offline fallback (or at the end of the body). */
export function addExplorerLink(html: string): string {
  const nonce = /nonce="?([0-9a-f]+)/.exec(html)?.[1];
  const style = nonce ? `<style nonce="${nonce}">[id^="embeddable"]:empty { display: none; }</style>` : '';
  if (html.includes(FALLBACK_END)) return html.replace(FALLBACK_END, `${FALLBACK_END}\n  ${EXPLORER_LINK_HTML}\n  ${style}`);
  return html.replace('</body>', `${EXPLORER_LINK_HTML}${style}</body>`);
}

/** `landingPage` (a landing-page plugin such as ApolloServerPluginLandingPageLocalDefault) rendering its page through addExplorerLink. */
export function withExplorerLink<T extends BaseContext>(landingPage: ApolloServerPlugin<T>): ApolloServerPlugin<T> {
  return {
    ...landingPage,
    async serverWillStart(service) {
      const listener = await landingPage.serverWillStart?.(service);
      const render = listener?.renderLandingPage?.bind(listener);
      if (!listener || !render) return listener;
      return {
        ...listener,
        async renderLandingPage(): Promise<LandingPage> {
          const { html } = await render();
          return { html: async () => addExplorerLink(typeof html === 'string' ? html : await html()) };
        },
      };
    },
  };
}
