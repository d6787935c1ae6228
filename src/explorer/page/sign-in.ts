// The explorer's sign-in form, in GraphiQL's logo slot (top right; main.ts): e-mail and password
// (session.ts signs in), then "Signed in as ..." and Sign out. The service auth token goes into
// the header editor as x-service-authtoken, where it can be seen and edited like any header; the
// form shows who is signed in while the editor holds that token. A tab opened or shown with an
// empty x-service-authtoken gets it too, as GraphiQL starts each new tab from the page's default
// headers. Sign-out revokes the token (logout) and empties the header. Like the headers, the
// session is not kept in the browser's storage: a reload signs out of the page (the token lives on
// at the service until it expires, 24 h after its last use, unless signed out first).
import { createElement, useEffect, useState } from 'react';
import { useGraphiQL, useHeadersEditorState } from '@graphiql/react';
import { authTokenOf, SessionError, signIn, signOut, withAuthToken, type SessionOptions, type SignedIn } from './session';

const NOT_AN_OBJECT = 'The request headers are not a JSON object: correct or clear them to sign in.';

const describe = (err: unknown) => (err instanceof SessionError ? err.text : `Could not reach the service (${String(err)}).`);

export function SignIn(options: SessionOptions) {
  // The header editor's text, re-rendering on each change; the editor itself to read and write it.
  const [headers] = useHeadersEditorState();
  const headerEditor = useGraphiQL((state) => state.headerEditor);
  const activeTab = useGraphiQL((state) => state.activeTabIndex);
  const [session, setSession] = useState<SignedIn | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const setToken = (token: string) => {
    if (!headerEditor) return;
    headerEditor.setValue(withAuthToken(headerEditor.getValue(), token) ?? withAuthToken('', token)!);
  };

  useEffect(() => {
    if (session && headerEditor && authTokenOf(headerEditor.getValue()) === '') setToken(session.authToken);
    // Only when another tab is shown: an emptied header in the same tab stays empty.
  }, [activeTab, headerEditor]);

  const signedIn = session !== null && authTokenOf(headers) === session.authToken ? session : null;

  const onSubmit = async (event: { preventDefault(): void; currentTarget: HTMLFormElement }) => {
    event.preventDefault();
    const form = event.currentTarget;
    const email = (form.elements.namedItem('email') as HTMLInputElement).value.trim();
    const password = form.elements.namedItem('password') as HTMLInputElement;
    if (headerEditor && withAuthToken(headerEditor.getValue(), '') === null) return setError(NOT_AN_OBJECT);
    setBusy(true);
    setError(null);
    try {
      const next = await signIn(email, password.value, options);
      setSession(next);
      setToken(next.authToken);
    } catch (err) {
      setError(describe(err));
    } finally {
      password.value = '';
      setBusy(false);
    }
  };

  const onSignOut = async () => {
    if (!signedIn) return;
    setBusy(true);
    setError(null);
    try {
      await signOut(signedIn.authToken, options);
      setSession(null);
      setToken('');
    } catch (err) {
      setError(`Not signed out: ${describe(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const alert = error && createElement('span', { role: 'alert', className: 'explorer-session-error' }, error);
  if (signedIn) {
    return createElement(
      'div',
      { className: 'explorer-session', role: 'group', 'aria-label': 'Session' },
      createElement('span', { className: 'explorer-session-user' }, `Signed in as ${signedIn.email} (user ${signedIn.userId})`),
      createElement('button', { type: 'button', className: 'graphiql-button', onClick: onSignOut, disabled: busy }, 'Sign out'),
      alert,
    );
  }
  return createElement(
    'form',
    { className: 'explorer-session', 'aria-label': 'Sign in', onSubmit },
    createElement('input', {
      name: 'email',
      type: 'email',
      required: true,
      placeholder: 'E-mail',
      'aria-label': 'E-mail',
      autoComplete: 'username',
    }),
    createElement('input', {
      name: 'password',
      type: 'password',
      required: true,
      placeholder: 'Password',
      'aria-label': 'Password',
      autoComplete: 'current-password',
    }),
    createElement('button', { type: 'submit', className: 'graphiql-button', disabled: busy }, busy ? 'Signing in...' : 'Sign in'),
    alert,
  );
}
