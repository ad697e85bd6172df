/**
 * How tidemark introduces itself in ApiVersions v3+, which brokers expose in their metrics and logs. Kept as a
 * constant rather than read from package.json at run time, because the built files do not sit at a fixed
 * distance from it; a unit test keeps the two equal.
 */
export const CLIENT_SOFTWARE_NAME = 'tidemark';
export const CLIENT_SOFTWARE_VERSION = '0.1.0';

/** What a broker accepts for both fields; anything else makes it reject ApiVersions with INVALID_REQUEST. */
const SOFTWARE_TOKEN = /^[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?$/;

/**
 * Coerces a name or version into the broker's accepted pattern: other characters become `-` and leading or
 * trailing non-alphanumerics are dropped, so `1.0.0+build/7` becomes `1.0.0-build-7`.
 */
export function softwareToken(text: string): string {
  if (SOFTWARE_TOKEN.test(text)) return text;
  const cleaned = text.replace(/[^a-zA-Z0-9\-.]/g, '-').replace(/^[^a-zA-Z0-9]+|[^a-zA-Z0-9]+$/g, '');
  return cleaned === '' ? 'unknown' : cleaned;
}
