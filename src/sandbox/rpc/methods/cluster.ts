import { errorMessage } from '../../../errors.js';
import { blockHeightOf, epochOf, SLOTS_PER_EPOCH } from '../../chain/clock.js';
import { parseWireTransaction } from '../../chain/wire.js';
import { API_VERSION, type MethodTable, withContext } from '../context.js';
import { invalidParams } from '../errors.js';
import { commitmentOf, configParam, integerParam, stringParam } from '../params.js';

/** Feature-set id reported by getVersion; any stable u32 satisfies clients. */
const FEATURE_SET = 3_294_202_862;

export const clusterMethods: MethodTable = {
  getHealth: () => 'ok',
  getVersion: () => ({ 'solana-core': API_VERSION, 'feature-set': FEATURE_SET }),
  getGenesisHash: (chain) => chain.genesisHash,
  getSlot: (chain, [config]) => {
    commitmentOf(configParam(config));
    return chain.slot;
  },
  getBlockHeight: (chain, [config]) => {
    commitmentOf(configParam(config));
    return chain.blockHeight;
  },
  getEpochInfo: (chain, [config]) => {
    commitmentOf(configParam(config));
    const slot = chain.slot;
    const { epoch, slotIndex } = epochOf(slot);
    return {
      absoluteSlot: slot,
      blockHeight: blockHeightOf(slot),
      epoch,
      slotIndex,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: BigInt(chain.transactionCount),
    };
  },
  getLatestBlockhash: (chain, [config]) => {
    commitmentOf(configParam(config));
    const { blockhash, lastValidBlockHeight } = chain.latestBlockhash();
    return withContext(chain, { blockhash, lastValidBlockHeight });
  },
  isBlockhashValid: (chain, [blockhash, config]) => {
    commitmentOf(configParam(config));
    return withContext(chain, chain.isBlockhashValid(stringParam(blockhash, 'blockhash')));
  },
  getMinimumBalanceForRentExemption: (chain, [length, config]) => {
    commitmentOf(configParam(config));
    return chain.minimumBalanceForRentExemption(integerParam(length, 'dataLength'));
  },
  getFeeForMessage: (chain, [message, config]) => {
    commitmentOf(configParam(config));
    const bytes = Buffer.from(stringParam(message, 'message'), 'base64');
    const tx = parseUnsignedMessage(bytes);
    // Mainnet answers null for a message whose blockhash has expired.
    const value = chain.isBlockhashValid(tx.recentBlockhash) ? chain.feeFor(tx) : null;
    return withContext(chain, value);
  },
};

/** Puts zeroed signatures in front of a bare message so the wire parser can read it. */
function parseUnsignedMessage(message: Buffer): ReturnType<typeof parseWireTransaction> {
  const versioned = (message[0] ?? 0) & 0x80 ? 1 : 0;
  const signers = message[versioned] ?? 0;
  const placeholder = new Uint8Array(1 + 64 * signers + message.length);
  placeholder[0] = signers;
  placeholder.set(message, 1 + 64 * signers);
  try {
    return parseWireTransaction(placeholder);
  } catch (error) {
    throw invalidParams(`invalid message: ${errorMessage(error)}`);
  }
}
