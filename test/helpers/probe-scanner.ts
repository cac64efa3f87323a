/**
 * A minimal scanner for payment tests that must not depend on a particular risk model: it
 * reads the subject's account over the real RPC and reports what it found. Failure modes are
 * injected by wrapping it.
 */
import { type Address, address } from '@solana/kit';
import type { ScanId } from '../../src/catalog.js';
import type { Scanner } from '../../src/scans/scanner.js';

export const probeScanner: Scanner = async (subject, { rpc }) => {
  const isSignature = subject.length > 60;
  const account = isSignature
    ? null
    : await rpc.getAccountInfo(address(subject) as Address, { encoding: 'base64' }).send();
  const exists = account?.value != null;
  return {
    result: {
      risk_score: exists ? 0.1 : 0.5,
      flags: exists ? [] : ['ACCOUNT_NOT_FOUND'],
      confidence: 1,
      summary: `${subject} ${exists ? 'exists' : 'was not found'} on chain.`,
      recommendation: exists ? 'Proceed.' : 'Check the address.',
      reasoning: [`getAccountInfo answered ${exists ? 'an account' : 'null'}`],
      evidence: { lamports: account?.value ? String(account.value.lamports) : null },
    },
  };
};

export const probeScanners = (scanner: Scanner = probeScanner): Record<ScanId, Scanner> => ({
  pumpfun: scanner,
  token: scanner,
  wallet: scanner,
  tx: scanner,
  program: scanner,
  simulate: scanner,
});
