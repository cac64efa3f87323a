/** @solana-risk-scan/client/webhook: verify a watch alert as its receiver, and what its signatures cover. */
export { signedContent } from './signed-content.js';
export {
  type PublicJwkLike,
  type VerifyOptions,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookPublicKey,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './webhook-verify.js';
