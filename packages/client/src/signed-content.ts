/**
 * What a delivery's signatures cover (the Standard Webhooks signed content):
 * `${webhook-id}.${webhook-timestamp}.${body}`, the body as its exact bytes. Shared by the
 * service, which signs it, and the receiver's verifier (webhook-verify.ts), so both build it
 * alike; the service imports it from this package (`@solana-risk-scan/client/webhook`).
 */
export function signedContent(
  webhookId: string,
  timestampSeconds: number | string,
  body: string | Uint8Array,
): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return Buffer.concat([Buffer.from(`${webhookId}.${timestampSeconds}.`, 'utf8'), bytes]);
}
