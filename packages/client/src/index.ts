/** @solana-risk-scan/client: pay the Solana Risk Scan API per call, pinned, capped and verified. */

export { type BatchKind, catalogUnits, type EndpointId, endpointOf, pathOf } from './catalog.js';
export { RiskScanClient, type RiskScanClientOptions } from './client.js';
export {
  CLIENT_HINTS,
  type FailureHints,
  type FailureKind,
  RiskScanError,
  type RiskScanErrorCode,
} from './errors.js';
export { DEFAULT_POLICY, type GatePolicy, type GateVerdict, gate } from './gate.js';
export {
  DECISION_TABLE,
  ENDPOINTS,
  FLAG_CODES,
  FLAGS_BY_ENDPOINT,
  MAX_WATCH_HOURS,
} from './generated/catalog.js';
export { signerFromSecretKey } from './keys.js';
export { isTimeout, networkReason } from './network-errors.js';
export { CAIP2_MAINNET, type PinnedOffer, USDC_MAINNET } from './offer.js';
export { type CallOutcome, type PayOptions, type PayRequest, payForCall } from './pay.js';
export { type Ed25519Jwk, ResultVerifier } from './result-signature.js';
export { type Allowance, SessionBudget, usdcUnits } from './session-budget.js';
export {
  type BatchResult,
  DECISIONS,
  type Decision,
  type FlagCode,
  type Paid,
  type ScanResult,
} from './types.js';
