/**
 * Wallet subjects with real history: an old, active wallet (transfers spread over six weeks), a fresh
 * burner funded and drained within seconds, and a wallet most of whose transactions failed on-chain.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { getTransferCheckedInstruction } from '@solana-program/token';
import { USDC_MINT } from '../../solana/programs.js';
import { fundUsdc, USDC_DECIMALS, usdcAccountOf } from '../usdc.js';
import { type Submitted, submit, submitFailing } from '../wallets.js';
import { DAY, HOUR, MINUTE } from './builders/timeline.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import { USDC_AUTHORITY_LABEL } from './tokens.js';

/** Tracks what a wallet's history and balance must be, from the transactions as they are sent. */
export class WalletLedger {
  readonly signatures: string[] = [];
  failed = 0;
  lamports: bigint;

  constructor(opening = 0n) {
    this.lamports = opening;
  }

  record(
    submitted: Submitted,
    options: { paidFee: boolean; lamportsOut?: bigint; lamportsIn?: bigint },
  ): void {
    this.signatures.push(submitted.signature);
    if (submitted.err !== null) this.failed += 1;
    if (options.paidFee) this.lamports -= submitted.fee;
    // A failed transaction moves nothing but its fee.
    if (submitted.err === null) this.lamports += (options.lamportsIn ?? 0n) - (options.lamportsOut ?? 0n);
  }
}

function blockTimeOf(context: ScenarioContext, signature: string | undefined): number {
  const record = signature ? context.chain.transaction(signature) : undefined;
  if (!record) throw new Error(`no transaction ${signature}`);
  return record.blockTime;
}

const OLD_WALLET = 'wallet:old-active';

function transfer(source: KeyPairSigner, destination: Address, amount: bigint) {
  return getTransferSolInstruction({ source, destination, amount });
}

/** Six weeks ago: the faucet funds the wallet, then one transfer a day, in and out, for 24 days. */
export async function seedOldWalletHistory(context: ScenarioContext): Promise<WalletLedger> {
  const { chain, keys, timeline } = context;
  const wallet = await keys.signer(OLD_WALLET);
  const friend = await fundedSigner(context, `${OLD_WALLET}:friend`, 1_000n * LAMPORTS_PER_SOL);
  const ledger = new WalletLedger();
  const airdrop = 50n * LAMPORTS_PER_SOL;
  const fundingSignature = await chain.airdrop(wallet.address, airdrop);
  ledger.record(
    { signature: fundingSignature, slot: chain.slot, err: null, fee: 0n },
    { paidFee: false, lamportsIn: airdrop },
  );
  for (let day = 0; day < 24; day++) {
    timeline.moveTo((44 - day) * DAY - (day % 5) * HOUR);
    if (day % 3 === 2) {
      const amount = BigInt(day + 1) * 10_000_000n;
      const received = await submit(chain, friend, [transfer(friend, wallet.address, amount)]);
      ledger.record(received, { paidFee: false, lamportsIn: amount });
    } else {
      const recipient = (await keys.signer(`${OLD_WALLET}:payee:${day % 7}`)).address;
      const amount = BigInt(day + 1) * 5_000_000n;
      const sent = await submit(chain, wallet, [transfer(wallet, recipient, amount)]);
      ledger.record(sent, { paidFee: true, lamportsOut: amount });
    }
  }
  return ledger;
}

/** The same wallet is still active: three transfers in the last two hours. */
export async function seedOldWalletRecent(
  context: ScenarioContext,
  ledger: WalletLedger,
): Promise<BuiltSubject> {
  const { chain, keys, timeline } = context;
  const wallet = await keys.signer(OLD_WALLET);
  for (const [i, hoursAgo] of [2, 1.5, 1].entries()) {
    timeline.moveTo(hoursAgo * HOUR);
    const recipient = (await keys.signer(`${OLD_WALLET}:payee:recent:${i}`)).address;
    const amount = 25_000_000n;
    ledger.record(await submit(chain, wallet, [transfer(wallet, recipient, amount)]), {
      paidFee: true,
      lamportsOut: amount,
    });
  }
  return {
    name: OLD_WALLET,
    kind: 'wallet',
    address: wallet.address,
    description:
      'Wallet funded six weeks ago with steady transfers in and out since, the last an hour ago; no failures',
    expect: {
      signatureCount: ledger.signatures.length,
      failedCount: ledger.failed,
      firstBlockTime: blockTimeOf(context, ledger.signatures[0]),
      lastBlockTime: blockTimeOf(context, ledger.signatures.at(-1)),
      lamports: ledger.lamports.toString(),
    },
  };
}

/** Ten minutes ago: an exchange-like wallet funds a new address, which sends 99.99 % out eight seconds later. */
export async function seedBurnerWallet(context: ScenarioContext): Promise<BuiltSubject> {
  const { chain, keys, timeline } = context;
  const funder = await fundedSigner(context, 'wallet:burner:funder', 10_000n * LAMPORTS_PER_SOL);
  const burner = await keys.signer('wallet:burner');
  const destination = (await keys.signer('wallet:burner:destination')).address;
  const ledger = new WalletLedger();
  const funded = 25n * LAMPORTS_PER_SOL;
  const funding = await submit(chain, funder, [transfer(funder, burner.address, funded)]);
  ledger.record(funding, { paidFee: false, lamportsIn: funded });
  timeline.advance(8);
  // Leaves 0.001 SOL: above the rent-exempt minimum, so the account survives the transfer.
  const drained = funded - 5_000n - 1_000_000n;
  const drain = await submit(chain, burner, [transfer(burner, destination, drained)]);
  ledger.record(drain, { paidFee: true, lamportsOut: drained });
  const fundedAt = blockTimeOf(context, funding.signature);
  const drainedAt = blockTimeOf(context, drain.signature);
  return {
    name: 'wallet:burner',
    kind: 'wallet',
    address: burner.address,
    description:
      'Fresh wallet: funded with 25 SOL, then 99.99 % sent on 8 seconds later; only two transactions ever',
    expect: {
      signatureCount: 2,
      failedCount: 0,
      firstBlockTime: fundedAt,
      lastBlockTime: drainedAt,
      lamports: ledger.lamports.toString(),
      fundedBy: funder.address,
      drain: {
        signature: drain.signature,
        lamports: drained.toString(),
        secondsAfterFunding: drainedAt - fundedAt,
        destination,
      },
    },
  };
}

/**
 * From five to three hours before the end: 16 of 20 USDC transfers fail on-chain (sent with skipPreflight, each asking
 * for more than the account holds → SPL Token custom error 1), the other 4 succeed.
 */
export async function seedHighFailureWallet(context: ScenarioContext): Promise<BuiltSubject> {
  const { chain, keys, timeline } = context;
  const wallet = await keys.signer('wallet:high-failure');
  const usdcAuthority = await keys.signer(USDC_AUTHORITY_LABEL);
  const counterparty = (await keys.signer('wallet:high-failure:counterparty')).address;
  const opening = 2n * LAMPORTS_PER_SOL;
  chain.setAccount({ address: wallet.address, lamports: opening });
  const ledger = new WalletLedger(opening);
  const fundingSignature = await fundUsdc(chain, usdcAuthority, [
    { owner: wallet.address, amount: 10n * 10n ** BigInt(USDC_DECIMALS) },
    { owner: counterparty, amount: 0n },
  ]);
  ledger.record({ signature: fundingSignature, slot: chain.slot, err: null, fee: 0n }, { paidFee: false });
  const source = await usdcAccountOf(wallet.address);
  const destination = await usdcAccountOf(counterparty);
  for (let i = 0; i < 20; i++) {
    timeline.advance(6 * MINUTE);
    const fails = i % 5 !== 4;
    // Different amounts keep every message (and so every signature) distinct.
    const amount = fails ? BigInt(50 + i) * 1_000_000n : 1_000_000n + BigInt(i);
    const instruction = getTransferCheckedInstruction({
      source,
      mint: USDC_MINT,
      destination,
      authority: wallet,
      amount,
      decimals: USDC_DECIMALS,
    });
    const submitted = fails
      ? await submitFailing(chain, wallet, [instruction])
      : await submit(chain, wallet, [instruction]);
    ledger.record(submitted, { paidFee: true });
  }
  return {
    name: 'wallet:high-failure',
    kind: 'wallet',
    address: wallet.address,
    description:
      'Wallet whose transactions mostly fail on-chain: 16 of 20 USDC transfers landed as failed (custom error 1, insufficient funds)',
    expect: {
      signatureCount: ledger.signatures.length,
      failedCount: ledger.failed,
      firstBlockTime: blockTimeOf(context, ledger.signatures[0]),
      lastBlockTime: blockTimeOf(context, ledger.signatures.at(-1)),
      lamports: ledger.lamports.toString(),
    },
  };
}
