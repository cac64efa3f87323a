/**
 * The latest verdict on a token, in the agent's context: the one on the token the message names
 * when this agent has scanned it, else the latest on any token. Nothing until a token is scanned.
 */
import type { Provider } from './eliza-types.js';
import { sessionOf } from './session.js';
import { firstAddress } from './subjects.js';
import { verdictText } from './wording.js';

export const RISK_VERDICT_PROVIDER = 'RISK_SCAN_VERDICT';

export const verdictProvider: Provider = {
  name: RISK_VERDICT_PROVIDER,
  description:
    'The latest paid risk verdict on a token: its decision, whether the policy allows a trade, and why.',
  get: async (runtime, message) => {
    const session = await sessionOf(runtime).catch(() => undefined);
    const latest = session?.verdictOn(firstAddress(message.content.text ?? ''));
    if (latest === undefined) return { text: '', values: {}, data: {} };
    const what = `${latest.scan === 'pumpfun' ? 'pump.fun token' : 'token'} ${latest.mint} (scanned ${latest.at})`;
    return {
      text: `# Latest risk verdict\n${verdictText(what, latest.result, latest.verdict)}`,
      values: {
        riskScanToken: latest.mint,
        riskScanDecision: latest.verdict.decision,
        riskScanAllow: latest.verdict.allow,
      },
      data: { verdict: latest },
    };
  },
};
