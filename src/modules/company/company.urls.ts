// Unsigned URLs of company images. Images are stored under storage keys
// (e.g. companies/1001/logo.png); their public URL is PUBLIC_BASE_URL + /files/ + the key, so a
// new image gets a new URL and clients and caches never hold a stale one.
/** Keys made only of these characters need no encoding (the common case: ids, names, extensions). */
const URL_SAFE_KEY = /^[A-Za-z0-9._~/-]+$/;

export function fileUrl(publicBaseUrl: string, key: string | null | undefined): string | null {
  if (!key) return null;
  const path = URL_SAFE_KEY.test(key) ? key : key.split('/').map(encodeURIComponent).join('/');
  return `${publicBaseUrl}/files/${path}`;
}
