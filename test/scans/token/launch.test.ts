/**
 * Launch forensics, pure parts: the transaction decoder on real mainnet getTransaction answers
 * (fixtures/mainnet/rpc, provenance there), and the launch flags at their thresholds on launch
 * facts built here (a creation transaction, buys in the window and after it, funding).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { launchChecks } from '../../../src/scans/token/launch/assess.js';
import { decodeLaunchTransaction } from '../../../src/scans/token/launch/decode.js';
import {
  BUNDLE_WALLETS,
  COMMON_FUNDER_BUYERS,
  LAUNCH_WINDOW_SLOTS,
  SNIPERS_HELD_SHARE,
} from '../../../src/scans/token/thresholds.js';
import type {
  LargestAccount,
  LaunchFacts,
  LaunchTransaction,
  TokenFacts,
} from '../../../src/scans/token-facts/model.js';

const rpcAnswer = (name: string) => {
  const json = JSON.parse(
    readFileSync(new URL(`../../../fixtures/mainnet/rpc/${name}`, import.meta.url), 'utf8'),
  );
  return json.result ?? json;
};

describe('decodeLaunchTransaction on real mainnet transactions', () => {
  it('a Raydium CLMM swap: the signer bought the token, into the token account its balance rose in', () => {
    const tx = decodeLaunchTransaction(
      rpcAnswer('getTransaction-v0-raydium-clmm-swap-2cd7QQSB.json'),
      '7eR1yv7pUzhaqQneKJ2fmVTRuzY61ja5KwfbBrLsq1Gu',
    );
    assert.ok(tx);
    assert.equal(tx.slot, 376411673);
    assert.equal(tx.feePayer, '98QXkwe6DThTsTq7tukKF4g9Wc6WnRbZyTBZ1iBupY39');
    assert.equal(tx.createsMint, false);
    assert.deepEqual(tx.buys, [
      {
        wallet: '98QXkwe6DThTsTq7tukKF4g9Wc6WnRbZyTBZ1iBupY39',
        tokenAccount: 'GG7wqYHurrpmME4fBouwwHDkT81kdeUXqhayTybVdJkr',
        // 2 473 007 728 728 after − 1 665 238 200 087 before
        amount: 807_769_528_641n,
      },
    ]);
  });

  it('a Meteora DAMM v2 buy: the buy, and the SOL the buyer sent by System transfer', () => {
    const tx = decodeLaunchTransaction(
      rpcAnswer('getTransaction-v0-meteora-damm-v2-3QHC6GMf.json'),
      '4KCqTCbhV4qkCTGcc7adxSym5j7irot7ZW7EEVUJ2s7C',
    );
    assert.ok(tx);
    assert.deepEqual(
      tx.buys.map((b) => [b.wallet, b.amount]),
      [['8QXHLs61dPPz9V4SLKPw7WN1vsuRpgGqxVo3Wtc55jWy', 10_049_442_880n]],
    );
    assert.deepEqual(tx.solTransfers, [
      {
        from: '8QXHLs61dPPz9V4SLKPw7WN1vsuRpgGqxVo3Wtc55jWy',
        to: 'HrRxugUJXCpHCYxqHvccZMafHrsFtsx5UQuBofMD2R5y',
        lamports: 3_853_747n,
      },
    ]);
  });

  it('a PumpSwap trade: the signer’s balance fell and a fee account (no signer) rose: no buy', () => {
    const tx = decodeLaunchTransaction(
      rpcAnswer('getTransaction-v0-pumpswap-trade-5bvyp1no.json'),
      'EWV6bjhKF5zkXANCdWPvDs7dofRVk4pKyVTitqgEWj8E',
    );
    assert.ok(tx);
    assert.deepEqual(tx.buys, []);
  });

  it('a plain SOL transfer: read as from → to and lamports; no token, no buy', () => {
    const tx = decodeLaunchTransaction(
      rpcAnswer('getTransaction-v0-sol-transfer-memo-2E9Ddokz.json'),
      '7eR1yv7pUzhaqQneKJ2fmVTRuzY61ja5KwfbBrLsq1Gu',
    );
    assert.ok(tx);
    assert.deepEqual(tx.solTransfers, [
      {
        from: 'F5YtngCQs6QCUdy2vqT6hMtFyNkLpkJSTQF2WZKV1y8e',
        to: 'AjWkS35VV8eptekzw59fAyXXQRXjcwanPezL4EDQfSd8',
        lamports: 42_000_000n,
      },
    ]);
    assert.deepEqual(tx.buys, []);
  });

  it('an answer that is no transaction is null, not a crash', () => {
    assert.equal(decodeLaunchTransaction({ slot: 1 }, 'x'), null);
    assert.equal(decodeLaunchTransaction(null, 'x'), null);
  });
});

// ---------------------------------------------------------------------------------------------
// Launch flags on built facts
// ---------------------------------------------------------------------------------------------

const SUPPLY = 1_000_000_000_000_000n;
const PCT = SUPPLY / 100n;
const SLOT = 300_000_000;
const CREATOR = 'Creator1111111111111111111111111111111111111';
const FUNDER = 'Funder11111111111111111111111111111111111111';
const wallet = (i: number) => `Buyer${String(i).padStart(2, '0')}11111111111111111111111111111111111`;
const ata = (i: number) => `Ata${String(i).padStart(2, '0')}1111111111111111111111111111111111111`;

const creation: LaunchTransaction = {
  signature: 'create',
  slot: SLOT,
  blockTime: 1_800_000_000,
  failed: false,
  feePayer: CREATOR,
  signers: [CREATOR],
  createsMint: true,
  buys: [{ wallet: CREATOR, tokenAccount: 'CreatorAta', amount: 2n * PCT }],
  solTransfers: [],
};

interface BuySpec {
  readonly i: number;
  readonly slot?: number;
  readonly amount?: bigint;
  readonly payer?: string;
  readonly fundedBy?: string;
}

const buy = ({ i, slot = SLOT, amount = PCT, payer, fundedBy }: BuySpec): LaunchTransaction => ({
  signature: `buy-${i}-${slot}`,
  slot,
  blockTime: 1_800_000_000,
  failed: false,
  feePayer: payer ?? wallet(i),
  signers: [...new Set([payer ?? wallet(i), wallet(i)])],
  createsMint: false,
  buys: [{ wallet: wallet(i), tokenAccount: ata(i), amount }],
  solTransfers: fundedBy ? [{ from: fundedBy, to: wallet(i), lamports: 1_000_000_000n }] : [],
});

/** Token facts holding `launch`, the largest accounts being `held` (ata index → amount) and fillers. */
function facts(transactions: LaunchTransaction[], held: Record<number, bigint> = {}, fill = 20): TokenFacts {
  const largest: LargestAccount[] = Object.entries(held).map(([i, amount]) => ({
    address: ata(Number(i)) as Address,
    amount,
  }));
  for (let k = largest.length; k < fill; k++) largest.push({ address: `Filler${k}` as Address, amount: 1n });
  const launch: LaunchFacts = {
    status: 'read',
    firstSlot: SLOT,
    inWindow: transactions.length,
    transactions,
    unread: 0,
    error: null,
    creator: null,
  };
  return { largest, launch } as unknown as TokenFacts;
}

const codes = (f: TokenFacts) => launchChecks(f, SUPPLY).hits.map((h) => h.code);
const hit = (f: TokenFacts, code: string) => {
  const found = launchChecks(f, SUPPLY).hits.find((h) => h.code === code);
  assert.ok(found, `${code} raised`);
  return found;
};

describe('launch flags at their thresholds', () => {
  it(`LAUNCH_BUNDLED: ${BUNDLE_WALLETS.warn} wallets besides the creator in the creation slot; not ${BUNDLE_WALLETS.warn - 1}, nor the third a slot later`, () => {
    const three = facts([creation, buy({ i: 1 }), buy({ i: 2 }), buy({ i: 3 })]);
    const bundled = hit(three, 'LAUNCH_BUNDLED');
    assert.equal(bundled.evidence.creation_slot, SLOT);
    assert.equal(bundled.evidence.bought_share, 0.03);
    assert.deepEqual(
      (bundled.evidence.wallets as { wallet: string; slot: number; bought: string }[]).map((w) => [
        w.wallet,
        w.slot,
        w.bought,
      ]),
      [1, 2, 3].map((i) => [wallet(i), SLOT, String(PCT)]),
    );
    assert.ok(bundled.strength > 0 && bundled.strength < 0.1, `weak at the threshold: ${bundled.strength}`);
    const ten = facts([creation, ...Array.from({ length: 10 }, (_, i) => buy({ i }))]);
    assert.equal(hit(ten, 'LAUNCH_BUNDLED').strength, 1);
    assert.ok(!codes(facts([creation, buy({ i: 1 }), buy({ i: 2 })])).includes('LAUNCH_BUNDLED'));
    const later = facts([creation, buy({ i: 1 }), buy({ i: 2 }), buy({ i: 3, slot: SLOT + 1 })]);
    assert.ok(!codes(later).includes('LAUNCH_BUNDLED'));
    // The creator's own buy (its dev buy) is not a bundle wallet.
    assert.ok(!codes(facts([creation, buy({ i: 1 }), buy({ i: 2 })])).includes('LAUNCH_BUNDLED'));
  });

  it(`LAUNCH_SNIPERS_HOLD: window buyers still holding ${SNIPERS_HELD_SHARE.warn * 100} %; not one unit less, nor buys after slot +${LAUNCH_WINDOW_SLOTS}, nor balances the largest accounts do not show`, () => {
    const early = [creation, buy({ i: 1 }), buy({ i: 2, slot: SLOT + LAUNCH_WINDOW_SLOTS })];
    const tenPct = facts(early, { 1: 6n * PCT, 2: 4n * PCT });
    const sniped = hit(tenPct, 'LAUNCH_SNIPERS_HOLD');
    assert.equal(sniped.evidence.held_share, 0.1);
    assert.equal(sniped.evidence.window_slots, LAUNCH_WINDOW_SLOTS);
    assert.deepEqual(
      (sniped.evidence.wallets as { wallet: string; held_now: string }[]).map((w) => [w.wallet, w.held_now]),
      [
        [wallet(1), String(6n * PCT)],
        [wallet(2), String(4n * PCT)],
      ],
    );
    assert.ok(!codes(facts(early, { 1: 6n * PCT, 2: 4n * PCT - 1n })).includes('LAUNCH_SNIPERS_HOLD'));
    const late = [creation, buy({ i: 1 }), buy({ i: 2, slot: SLOT + LAUNCH_WINDOW_SLOTS + 1 })];
    assert.ok(!codes(facts(late, { 1: 6n * PCT, 2: 4n * PCT })).includes('LAUNCH_SNIPERS_HOLD'));
    // Buyer 2's account is not among the 20 largest: at most the smallest listed, never counted.
    const unseen = launchChecks(facts(early, { 1: 6n * PCT }), SUPPLY);
    assert.ok(!unseen.hits.some((h) => h.code === 'LAUNCH_SNIPERS_HOLD'));
    const buyers = (unseen.summary.launch as { buyers: Record<string, unknown>[] }).buyers;
    assert.equal(buyers.find((b) => b.wallet === wallet(2))?.held_now_at_most, '1');
    // A list shorter than 20 holds every account: an account missing from it is empty.
    const short = launchChecks(facts(early, { 1: 6n * PCT }, 5), SUPPLY).summary.launch as {
      buyers: Record<string, unknown>[];
    };
    assert.equal(short.buyers.find((b) => b.wallet === wallet(2))?.held_now, '0');
    // No list at all (the RPC refused it): what buyers hold is unknown, and no share is claimed.
    const blind = launchChecks({ ...facts(early, { 1: 6n * PCT, 2: 4n * PCT }), largest: null }, SUPPLY);
    assert.ok(!blind.hits.some((h) => h.code === 'LAUNCH_SNIPERS_HOLD'));
    const unknown = (blind.summary.launch as { buyers: Record<string, unknown>[] }).buyers;
    assert.deepEqual(
      unknown.map((b) => b.held_now_at_most),
      [null, null],
    );
  });

  it('LAUNCH_INSIDERS: the creator paid a buyer’s transaction, or sent it SOL; not a buyer paying for itself', () => {
    const paid = hit(facts([creation, buy({ i: 1, payer: CREATOR })]), 'LAUNCH_INSIDERS');
    assert.deepEqual(
      [paid.evidence.funder, paid.evidence.funder_is_creator, paid.severity],
      [CREATOR, true, undefined],
    );
    const sent = hit(facts([creation, buy({ i: 1, slot: SLOT + 2, fundedBy: CREATOR })]), 'LAUNCH_INSIDERS');
    assert.deepEqual((sent.evidence.wallets as { funded_by: string[] }[])[0]?.funded_by, [CREATOR]);
    assert.ok(!codes(facts([creation, buy({ i: 1 }), buy({ i: 2 })])).includes('LAUNCH_INSIDERS'));
  });

  it(`LAUNCH_INSIDERS (medium): one other wallet funded ${COMMON_FUNDER_BUYERS} buyers; not ${COMMON_FUNDER_BUYERS - 1}`, () => {
    const three = [1, 2, 3].map((i) => buy({ i, slot: SLOT + 1, fundedBy: FUNDER }));
    const common = hit(facts([creation, ...three]), 'LAUNCH_INSIDERS');
    assert.deepEqual(
      [common.evidence.funder, common.evidence.funder_is_creator, common.severity],
      [FUNDER, false, 'medium'],
    );
    assert.ok(!codes(facts([creation, ...three.slice(0, 2)])).includes('LAUNCH_INSIDERS'));
  });

  it('a fair launch: buyers spread over time, each paying for itself, raises nothing', () => {
    const spread = [1, 2, 3, 4].map((i) => buy({ i, slot: SLOT + 10 * i, amount: 5n * PCT }));
    const result = launchChecks(
      facts([creation, buy({ i: 9, slot: SLOT + 2 }), ...spread], { 9: PCT }),
      SUPPLY,
    );
    assert.deepEqual(result.hits, []);
    const launch = result.summary.launch as Record<string, unknown>;
    assert.deepEqual([launch.checked, launch.creator, launch.buyers_count], [true, CREATOR, 1]);
  });

  it('LAUNCH_UNAVAILABLE: a young token whose first transactions the RPC did not return; not when only later ones are missing', () => {
    const unread: TokenFacts = {
      ...facts([]),
      launch: {
        status: 'read',
        firstSlot: SLOT,
        inWindow: 4,
        transactions: [],
        unread: 4,
        error: 'injected',
        creator: null,
      },
    };
    const blind = hit(unread, 'LAUNCH_UNAVAILABLE');
    assert.match(String(blind.evidence.reason), /4 not read: injected/);
    const partial: TokenFacts = {
      ...facts([creation, buy({ i: 1 })]),
      launch: {
        status: 'read',
        firstSlot: SLOT,
        inWindow: 5,
        transactions: [creation, buy({ i: 1 })],
        unread: 3,
        error: 'injected',
        creator: null,
      },
    };
    const read = launchChecks(partial, SUPPLY);
    assert.deepEqual(read.hits, []);
    assert.match(read.notes[0] ?? '', /3 of 5 launch-window transactions not read/);
  });

  it('not run on an old token (truncated page), nor without the creation: says why, raises nothing', () => {
    const old = {
      launch: { status: 'not-run', reason: 'more history than one page' },
    } as unknown as TokenFacts;
    const result = launchChecks(old, SUPPLY);
    assert.deepEqual(result.hits, []);
    assert.deepEqual(result.summary, { launch: { checked: false, reason: 'more history than one page' } });
    assert.match(result.notes[0] ?? '', /^launch forensics not run: /);
    const pruned = launchChecks(facts([buy({ i: 1 }), buy({ i: 2 }), buy({ i: 3 })]), SUPPLY);
    assert.deepEqual(pruned.hits, []);
    assert.match(String((pruned.summary.launch as { reason: string }).reason), /creation/);
    assert.deepEqual(launchChecks({} as TokenFacts, SUPPLY), { hits: [], summary: {}, notes: [] });
  });
});
