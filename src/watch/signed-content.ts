/**
 * What a delivery's signatures cover (the Standard Webhooks signed content):
 * `${webhook-id}.${webhook-timestamp}.${body}`, the body as its exact bytes. Shared by the
 * service, which signs it, and the receiver's verifier (src/client), so both build it alike;
 * it imports nothing, so a client may take it without any of the server.
 */
export function signedContent(
  webhookId: string,
  timestampSeconds: number | string,
  body: string | Uint8Array,
): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return Buffer.concat([Buffer.from(`${webhookId}.${timestampSeconds}.`, 'utf8'), bytes]);
}
