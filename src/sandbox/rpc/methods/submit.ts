import type { SandboxChain } from '../../chain/chain.js';
import { type SimulationResult, TransactionRejectedError } from '../../chain/chain.js';
import { transactionErrorMessage } from '../../chain/tx-errors.js';
import { type MethodTable, withContext } from '../context.js';
import { accountEncodingOf, decodeWireParam, encodeAccount } from '../encoding.js';
import { invalidParams, RpcError, RpcErrorCode } from '../errors.js';
import {
  addressParam,
  arrayParam,
  commitmentOf,
  configParam,
  integerParam,
  optionalBoolean,
} from '../params.js';

function simulationValue(
  simulation: SimulationResult,
  accounts: unknown[] | null,
  innerInstructions: boolean,
) {
  return {
    err: simulation.err,
    logs: simulation.logs,
    accounts,
    unitsConsumed: simulation.unitsConsumed,
    returnData: simulation.returnData,
    innerInstructions: innerInstructions ? simulation.innerInstructions : null,
    replacementBlockhash: simulation.replacementBlockhash,
    loadedAddresses: simulation.loadedAddresses,
    fee: simulation.fee,
  };
}

/** Maps the chain's refusals onto the error codes and messages a mainnet node sends. */
function rejection(error: unknown): never {
  if (!(error instanceof TransactionRejectedError)) throw error;
  switch (error.reason) {
    case 'malformed':
      throw invalidParams(
        `failed to deserialize solana_transaction::versioned::VersionedTransaction: ${error.message}`,
      );
    case 'signature':
      throw new RpcError(RpcErrorCode.TransactionSignatureVerificationFailure, error.message);
    case 'sigverify-with-replace':
      throw invalidParams(error.message);
    case 'preflight': {
      const simulation = error.simulation!;
      const reason = simulation.err === null ? 'unknown' : transactionErrorMessage(simulation.err);
      throw new RpcError(
        RpcErrorCode.SendTransactionPreflightFailure,
        `Transaction simulation failed: ${reason}`,
        simulationValue(simulation, null, false),
      );
    }
  }
}

function simulatedAccounts(
  chain: SandboxChain,
  simulation: SimulationResult,
  option: unknown,
): unknown[] | null {
  if (option === undefined || option === null) return null;
  if (typeof option !== 'object') throw invalidParams('invalid type for accounts');
  const { addresses, encoding } = option as Record<string, unknown>;
  const keys = arrayParam(addresses, 'accounts.addresses').map(addressParam);
  const options = accountEncodingOf({ encoding: encoding ?? 'base64' }, 'base64');
  return keys.map((key) => {
    const account = simulation.postAccounts.get(key) ?? chain.getAccount(key);
    return account ? encodeAccount(account, options, chain) : null;
  });
}

export const submitMethods: MethodTable = {
  simulateTransaction: (chain, [transaction, config]) => {
    const options = configParam(config);
    commitmentOf(options);
    const wire = decodeWireParam(transaction, options);
    let simulation: SimulationResult;
    try {
      simulation = chain.simulate(wire, {
        sigVerify: optionalBoolean(options, 'sigVerify'),
        replaceRecentBlockhash: optionalBoolean(options, 'replaceRecentBlockhash'),
      });
    } catch (error) {
      rejection(error);
    }
    const accounts = simulatedAccounts(chain, simulation, options.accounts);
    return withContext(
      chain,
      simulationValue(simulation, accounts, optionalBoolean(options, 'innerInstructions')),
    );
  },
  sendTransaction: (chain, [transaction, config]) => {
    const options = configParam(config);
    commitmentOf({ commitment: options.preflightCommitment });
    const wire = decodeWireParam(transaction, options);
    try {
      return chain.send(wire, { skipPreflight: optionalBoolean(options, 'skipPreflight') }).signature;
    } catch (error) {
      rejection(error);
    }
  },
  requestAirdrop: async (chain, [address, lamports, config]) => {
    commitmentOf(configParam(config));
    const key = addressParam(address);
    const amount = integerParam(lamports, 'lamports');
    try {
      return await chain.airdrop(key, amount);
    } catch (error) {
      if (error instanceof TransactionRejectedError) {
        throw new RpcError(RpcErrorCode.InternalError, `airdrop request failed: ${error.message}`);
      }
      throw error;
    }
  },
};
