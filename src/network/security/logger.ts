/**
 * Debug events of the security layer (TLS sessions, SASL handshakes, re-authentication). Fields carry names,
 * versions and timings only: never a password, token, key or SASL payload.
 */
export type SecurityLogger = (event: string, fields: Record<string, unknown>) => void;

/** Replaces every occurrence of a secret in text that came from outside (a broker's error message). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 3) out = out.split(secret).join('[redacted]');
  return out;
}
