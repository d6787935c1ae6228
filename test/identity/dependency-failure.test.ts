// A database that does not answer: the service still starts, the OAuth endpoints answer 503
// temporarily_unavailable (no-store), and the identity operations their service exception.
import { useWithoutDatabase } from '../kit';
import { passwordParams } from '../kit/oauth';

const down = useWithoutDatabase();

it('then the token endpoint answers 503 temporarily_unavailable with no-store and Retry-After', async () => {
  const res = await fetch(`${down.baseUrl}/as/token.oauth2`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(passwordParams('olivia@demo.example')),
  });
  expect(res.status).toBe(503);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('retry-after')).toBe('5');
  expect(await res.json()).toEqual({
    error: 'temporarily_unavailable',
    error_description: 'The service is temporarily unavailable. Try again later.',
  });
});

it('then the authorization endpoint answers 503 without redirecting', async () => {
  const res = await fetch(`${down.baseUrl}/as/authorization.oauth2?response_type=code&client_id=demo-mobile`, { redirect: 'manual' });
  expect(res.status).toBe(503);
  expect(res.headers.get('location')).toBeNull();
  expect(((await res.json()) as any).error).toBe('temporarily_unavailable');
});

it('then the login scheme answers 503 WSAuthorisationServiceException', async () => {
  const scheme = await fetch(`${down.baseUrl}/rest/user/login-scheme?email=a%40b.example`);
  expect(scheme.status).toBe(503);
  expect(await scheme.json()).toEqual({
    errorCode: 'WSAuthorisationServiceException',
    message: 'The authorisation service is unavailable.',
  });
});
