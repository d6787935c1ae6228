// Unsigned URLs of company images. Images are stored under storage keys
// (e.g. companies/1001/logo.png); their public URL is PUBLIC_BASE_URL + /files/ + the key, so a
// new image gets a new URL and clients and caches never hold a stale one.
export function fileUrl(publicBaseUrl: string, key: string | null | undefined): string | null {
  if (!key) return null;
  return `${publicBaseUrl}/files/${key.split('/').map(encodeURIComponent).join('/')}`;
}
