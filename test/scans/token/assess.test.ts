/**
 * assessToken (pure) flag by flag, on TokenFacts built here from a clean baseline token plus
 * overrides: for every flag in TOKEN_FLAGS, the smallest facts that raise it (with every
 * evidence key of the catalog, value by value) and the closest facts that must not (the
 * thresholds and false positives of docs/risk-model.md, at their exact boundaries). Account
 * bytes come from the @solana-program encoders (SPL Token, Token-2022 and its extensions) and a
 * Metaplex MetadataV1 laid out in Borsh; addresses are real ed25519 keys and real PDAs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Address,
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  isOffCurveAddress,
} from '@solana/kit';
import { getTokenEncoder, AccountState as SplAccountState } from '@solana-program/token';
import {
  type ExtensionArgs,
  ExtensionType,
  AccountState as T22AccountState,
} from '@solana-program/token-2022';
import { bucketOf } from '../../../src/scans/risk/combine.js';
import { assessToken, NOT_A_MINT_ADVICE, TOKEN_ADVICE } from '../../../src/scans/token/assess.js';
import { TOKEN_FLAGS } from '../../../src/scans/token/flags.js';
import { ISSUER_CONTROLS, issuerControlWording } from '../../../src/scans/token/issuer-control.js';
import type {
  LargestAccount,
  MintHistory,
  RawAccount,
  SimulatedTransfer,
  TokenFacts,
} from '../../../src/scans/token-facts/model.js';
import { TRUSTED_ISSUERS } from '../../../src/scans/token-facts/trusted.js';
import { findMetadataAddress } from '../../../src/solana/decoders/metaplex-metadata.js';
import {
  INCINERATOR,
  RAYDIUM_AMM_V4_PROGRAM,
  SYSTEM_PROGRAM,
  TOKEN_METADATA_PROGRAM,
  TOKEN_PROGRAM,
  USDC_MINT,
  WSOL_MINT,
} from '../../../src/solana/programs.js';
import { assessCoverage, flagEvidenceOf } from '../../helpers/flag-coverage.js';
import { signature, wallet } from '../../helpers/labelled-keys.js';
import { metaplexBytes, mintBytes } from '../../helpers/token-accounts.js';

// ---------------------------------------------------------------------------------------------
// Addresses, signatures and the clock
// ---------------------------------------------------------------------------------------------

/** A base58 transaction signature (64 bytes). */
const MINT = wallet('risk-scan test mint');
const AUTHORITY = wallet('risk-scan test authority');
const OTHER = wallet('risk-scan test other party');
const WALLETS = Array.from({ length: 20 }, (_, i) => wallet(`risk-scan test holder ${i}`));
const TOKEN_ACCOUNTS = Array.from({ length: 20 }, (_, i) => wallet(`risk-scan test token account ${i}`));
/** An AMM-vault-like PDA: off the curve, so only its program can sign for it. */
const [POOL_VAULT] = await getProgramDerivedAddress({
  programAddress: RAYDIUM_AMM_V4_PROGRAM,
  seeds: ['risk-scan test pool vault'],
});
const METADATA = await findMetadataAddress(MINT);
/** USDC's address with its last byte changed: a look-alike, one byte away from a trusted mint. */
const USDC_LOOK_ALIKE = (() => {
  const bytes = new Uint8Array(getAddressEncoder().encode(USDC_MINT));
  bytes[31] = bytes[31]! ^ 0x01;
  return getAddressDecoder().decode(bytes);
})();

const SUPPLY = 1_000_000_000_000_000n; // 1 billion tokens of 6 decimals
const PCT = SUPPLY / 100n; // 1 % of the supply
const EPOCH = 700n;
const NOW = 1_790_000_000;
const HOUR = 3600;
const DAY = 24 * HOUR;
const CREATION = signature('risk-scan test mint creation');
/** Token-2022's OptionalNonZeroPubkey "none": 32 zero bytes. */
const NO_KEY = SYSTEM_PROGRAM;

// ---------------------------------------------------------------------------------------------
// The builder: a clean token, plus overrides
// ---------------------------------------------------------------------------------------------

interface HolderSpec {
  readonly owner: Address;
  readonly amount: bigint;
  readonly frozen?: boolean;
  readonly delegate?: Address;
  readonly delegatedAmount?: bigint;
}

interface TokenSpec {
  readonly mint?: Address;
  readonly mintAuthority?: Address | null;
  readonly freezeAuthority?: Address | null;
  readonly supply?: bigint;
  /** Token-2022 extensions; absent = an SPL Token mint. */
  readonly extensions?: readonly ExtensionArgs[];
  /** The Metaplex metadata account; null = none at the PDA. Default: immutable. */
  readonly metaplex?: { readonly updateAuthority: Address; readonly isMutable: boolean } | null;
  /** The largest holders, any order; null = getTokenLargestAccounts refused. */
  readonly holders?: readonly HolderSpec[] | null;
  /** Final overrides of the facts themselves (history, epoch, raw accounts, …). */
  readonly facts?: Partial<TokenFacts>;
}

/** `top` first, then other wallets with `each` apiece, 20 holders in all (as the RPC lists). */
function crowd(top: readonly HolderSpec[] = [], each: bigint = 2n * PCT): HolderSpec[] {
  const used = new Set(top.map((h) => h.owner));
  const rest = WALLETS.filter((w) => !used.has(w))
    .slice(0, Math.max(0, 20 - top.length))
    .map((owner) => ({ owner, amount: each }));
  return [...top, ...rest];
}

const account = (address: Address, owner: Address, data: Uint8Array): RawAccount => ({
  address,
  owner,
  lamports: 1_461_600n,
  data,
});

const mintData = (spec: TokenSpec) => mintBytes({ ...spec, supply: spec.supply ?? SUPPLY });

const metaplexData = metaplexBytes;

function token(spec: TokenSpec = {}): TokenFacts {
  const mint = spec.mint ?? MINT;
  const { owner: tokenProgram, data } = mintData(spec);
  const metaplex =
    spec.metaplex === undefined ? { updateAuthority: AUTHORITY, isMutable: false } : spec.metaplex;
  const holders = spec.holders === undefined ? crowd() : spec.holders;
  const sorted = holders === null ? [] : [...holders].sort((a, b) => (a.amount < b.amount ? 1 : -1));
  const largest: LargestAccount[] = sorted.map((h, i) => ({ address: TOKEN_ACCOUNTS[i]!, amount: h.amount }));
  const holderAccounts = sorted.map((h, i) =>
    account(
      TOKEN_ACCOUNTS[i]!,
      tokenProgram,
      new Uint8Array(
        getTokenEncoder().encode({
          mint,
          owner: h.owner,
          amount: h.amount,
          delegate: h.delegate ?? null,
          state: h.frozen ? SplAccountState.Frozen : SplAccountState.Initialized,
          isNative: null,
          delegatedAmount: h.delegatedAmount ?? 0n,
          closeAuthority: null,
        }),
      ),
    ),
  );
  return {
    mint,
    mintAccount: account(mint, tokenProgram, data),
    metadataAddress: METADATA,
    metadataAccount:
      metaplex === null
        ? null
        : account(
            METADATA,
            TOKEN_METADATA_PROGRAM,
            metaplexData(mint, metaplex.updateAuthority, metaplex.isMutable),
          ),
    extraAccounts: [],
    epoch: EPOCH,
    largest: holders === null ? null : largest,
    largestError: holders === null ? 'getTokenLargestAccounts: Too many accounts requested' : null,
    holderAccounts,
    history: dated(90 * DAY),
    nowSeconds: NOW,
    ...spec.facts,
  };
}

/** A history page that reaches the mint's creation `ageSeconds` ago (or a full page, `truncated`). */
function dated(ageSeconds: number, truncated = false): MintHistory {
  return {
    count: truncated ? 1000 : 240,
    oldest: { signature: CREATION, blockTime: NOW - ageSeconds },
    truncated,
  };
}

/** The mint bytes with the COption tags left at None but stale keys in the key slots. */
function withStaleKeys(facts: TokenFacts, keys: { mint?: Address; freeze?: Address }): TokenFacts {
  const mintAccount = facts.mintAccount!;
  const data = new Uint8Array(mintAccount.data);
  assert.equal(new DataView(data.buffer).getUint32(0, true), 0, 'mint authority tag is None');
  assert.equal(new DataView(data.buffer).getUint32(46, true), 0, 'freeze authority tag is None');
  if (keys.mint) data.set(getAddressEncoder().encode(keys.mint), 4);
  if (keys.freeze) data.set(getAddressEncoder().encode(keys.freeze), 50);
  return { ...facts, mintAccount: { ...mintAccount, data } };
}

/** The mint bytes with one raw TLV entry (type, value) appended to the extension area. */
function withTlv(facts: TokenFacts, type: number, value: Uint8Array): TokenFacts {
  const mintAccount = facts.mintAccount!;
  const entry = new Uint8Array(4 + value.length);
  new DataView(entry.buffer).setUint16(0, type, true);
  new DataView(entry.buffer).setUint16(2, value.length, true);
  entry.set(value, 4);
  const data = new Uint8Array([...mintAccount.data, ...entry]);
  return { ...facts, mintAccount: { ...mintAccount, data } };
}

const transferFee = (
  older: number,
  newer: number,
  newerEpoch: bigint,
  authorities: { config?: Address; withdraw?: Address } = {},
): ExtensionArgs => ({
  __kind: 'TransferFeeConfig',
  transferFeeConfigAuthority: authorities.config ?? NO_KEY,
  withdrawWithheldAuthority: authorities.withdraw ?? NO_KEY,
  withheldAmount: 0n,
  olderTransferFee: { epoch: 0n, maximumFee: 5_000_000n, transferFeeBasisPoints: older },
  newerTransferFee: { epoch: newerEpoch, maximumFee: 7_000_000n, transferFeeBasisPoints: newer },
});

/** Held by `owner`: `pct` hundredths of a percent of the supply (e.g. 2000 = 20 %). */
const holds = (owner: Address, bps: bigint, extra: Partial<HolderSpec> = {}): HolderSpec => ({
  owner,
  amount: (SUPPLY * bps) / 10_000n,
  ...extra,
});

// ---------------------------------------------------------------------------------------------
// Running assess: every result is checked against the model's invariants
// ---------------------------------------------------------------------------------------------

const {
  assess,
  expectRaised,
  notRaised: expectNotRaised,
  weightOf,
} = assessCoverage(TOKEN_FLAGS, assessToken, {
  check(result) {
    const advice = result.flags.includes('NOT_A_MINT') ? NOT_A_MINT_ADVICE : TOKEN_ADVICE;
    const issuer = (result.evidence as { trusted_issuer?: string | null }).trusted_issuer;
    const control = result.flags.some((f) => f in ISSUER_CONTROLS);
    // A trusted issuer's own powers are worded for it (issuer-control.ts); the rest is generic.
    if (issuer && control) assert.match(result.recommendation, /, the issuer of /);
    else assert.equal(result.recommendation, advice[bucketOf(result.risk_score)]);
  },
});

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

describe('assessToken (pure), flag by flag', () => {
  it('the baseline: revoked SPL mint, immutable metadata, 20 holders of 2 %, 90 days old, raises nothing', () => {
    const result = assess(token());
    assert.deepEqual(result.flags, []);
    assert.equal(result.risk_score, 0);
    assert.equal(result.confidence, 1);
    assert.equal(result.recommendation, TOKEN_ADVICE.proceed);
    const evidence = result.evidence as Record<string, unknown>;
    assert.equal(evidence.mint, MINT);
    assert.equal(evidence.supply, String(SUPPLY));
    assert.equal(evidence.top1_share, 0.02);
    assert.equal(evidence.top10_share, 0.2);
    assert.equal(evidence.age_hours, 90 * 24);
    assert.match(result.summary, /^Token \w{4}…\w{4} \(FLAG\): low risk; no risk flags were raised\.$/);
  });

  it('NOT_A_MINT: no account, a wallet, a token account; not a mint of either token program', () => {
    const none = assess(token({ facts: { mintAccount: null } }));
    expectRaised(none, 'NOT_A_MINT', {
      exists: false,
      owner: null,
      reason: 'no account exists at this address',
    });
    assert.deepEqual(none.flags, ['NOT_A_MINT'], 'nothing else is judged on a non-mint');
    assert.match(none.summary, /^Address /);
    assert.equal(none.risk_score, 0.6);

    const aWallet = assess(
      token({ facts: { mintAccount: account(MINT, SYSTEM_PROGRAM, new Uint8Array(0)) } }),
    );
    expectRaised(aWallet, 'NOT_A_MINT', {
      exists: true,
      owner: SYSTEM_PROGRAM,
      reason: `owner ${SYSTEM_PROGRAM} is not a token program`,
    });
    const holderAccount = token().holderAccounts[0]!;
    const aTokenAccount = assess(token({ facts: { mintAccount: { ...holderAccount, address: MINT } } }));
    expectRaised(aTokenAccount, 'NOT_A_MINT', {
      exists: true,
      owner: TOKEN_PROGRAM,
      reason: '165 bytes: a token account',
    });

    // Closest: a mint of each program, the Token-2022 one carrying extensions (and so > 165 bytes).
    expectNotRaised(assess(token()), 'NOT_A_MINT', 'an SPL Token mint');
    const extended = token({ extensions: [{ __kind: 'NonTransferable' }] });
    assert.ok(extended.mintAccount!.data.length > 165);
    expectNotRaised(assess(extended), 'NOT_A_MINT', 'an extended Token-2022 mint');
  });

  it('MINT_AUTHORITY_ACTIVE: a Some tag, keypair or PDA; not a None tag over stale key bytes', () => {
    expectRaised(assess(token({ mintAuthority: AUTHORITY })), 'MINT_AUTHORITY_ACTIVE', {
      mint_authority: AUTHORITY,
      authority_kind: 'keypair',
    });
    assert.ok(isOffCurveAddress(POOL_VAULT));
    const pda = assess(token({ mintAuthority: POOL_VAULT }));
    expectRaised(pda, 'MINT_AUTHORITY_ACTIVE', { mint_authority: POOL_VAULT, authority_kind: 'pda' });
    assert.equal(weightOf(pda, 'MINT_AUTHORITY_ACTIVE'), 0.6);

    // The legacy pump.fun shape: authority revoked (tag 0) with the old key still in the bytes.
    const stale = assess(withStaleKeys(token(), { mint: AUTHORITY }));
    expectNotRaised(stale, 'MINT_AUTHORITY_ACTIVE', 'None tag, stale key bytes');
    assert.equal((stale.evidence as Record<string, unknown>).mint_authority, null);
  });

  it('FREEZE_AUTHORITY_ACTIVE: a Some tag; not a None tag over stale key bytes', () => {
    expectRaised(assess(token({ freezeAuthority: OTHER })), 'FREEZE_AUTHORITY_ACTIVE', {
      freeze_authority: OTHER,
      authority_kind: 'keypair',
    });
    const stale = assess(withStaleKeys(token(), { mint: AUTHORITY, freeze: OTHER }));
    expectNotRaised(stale, 'FREEZE_AUTHORITY_ACTIVE', 'None tag, stale key bytes');
    assert.deepEqual(stale.flags, []);
  });

  it('PERMANENT_DELEGATE: a delegate key; not the extension holding the zero key', () => {
    const raised = assess(token({ extensions: [{ __kind: 'PermanentDelegate', delegate: OTHER }] }));
    expectRaised(raised, 'PERMANENT_DELEGATE', { permanent_delegate: OTHER });
    assert.equal(weightOf(raised, 'PERMANENT_DELEGATE'), 0.9);
    expectNotRaised(
      assess(token({ extensions: [{ __kind: 'PermanentDelegate', delegate: NO_KEY }] })),
      'PERMANENT_DELEGATE',
      'extension present, delegate all zeros',
    );
  });

  it('TRANSFER_FEE: the fee in force at the current epoch, severity by rate at 1 %, 10 %, 25 %; not a 0 % fee now in force', () => {
    const raised = assess(token({ extensions: [transferFee(100, 100, 0n)] }));
    expectRaised(raised, 'TRANSFER_FEE', { fee_basis_points: 100, maximum_fee: '7000000', epoch: '700' });
    // The older fee is the one in force until the newer one's epoch.
    expectRaised(assess(token({ extensions: [transferFee(300, 900, EPOCH + 1n)] })), 'TRANSFER_FEE', {
      fee_basis_points: 300,
      maximum_fee: '5000000',
      epoch: '700',
    });
    // Docs: under 1 % low, from 1 % medium, from 10 % high, from 25 % critical.
    for (const [bps, weight] of [
      [1, 0.1],
      [99, 0.1],
      [100, 0.3],
      [999, 0.3],
      [1000, 0.6],
      [2499, 0.6],
      [2500, 0.9],
      [10_000, 0.9],
    ] as const) {
      const result = assess(token({ extensions: [transferFee(bps, bps, 0n)] }));
      assert.equal(weightOf(result, 'TRANSFER_FEE'), weight, `${bps} bps`);
    }
    // Closest: a 5 % fee in the past, replaced by 0 % from exactly this epoch.
    const lowered = assess(token({ extensions: [transferFee(500, 0, EPOCH)] }));
    expectNotRaised(lowered, 'TRANSFER_FEE', 'the fee in force is 0 %');
    expectNotRaised(lowered, 'TRANSFER_FEE_INCREASE_SCHEDULED', 'a decrease');
  });

  it('TRANSFER_FEE_INCREASE_SCHEDULED: a higher newer fee from the next epoch; not from this epoch, nor an equal one', () => {
    const raised = assess(token({ extensions: [transferFee(100, 200, EPOCH + 1n)] }));
    expectRaised(raised, 'TRANSFER_FEE_INCREASE_SCHEDULED', {
      fee_basis_points_next: 200,
      effective_epoch: '701',
    });
    assert.equal(weightOf(raised, 'TRANSFER_FEE_INCREASE_SCHEDULED'), 0.3);
    const toTen = assess(token({ extensions: [transferFee(0, 1000, EPOCH + 2n)] }));
    assert.equal(weightOf(toTen, 'TRANSFER_FEE_INCREASE_SCHEDULED'), 0.6, 'high once the next fee is 10 %');
    expectNotRaised(toTen, 'TRANSFER_FEE', 'nothing is charged yet');

    const inForce = assess(token({ extensions: [transferFee(100, 200, EPOCH)] }));
    expectNotRaised(inForce, 'TRANSFER_FEE_INCREASE_SCHEDULED', 'the newer fee applies from this epoch');
    assert.equal(flagEvidenceOf(inForce).TRANSFER_FEE!.fee_basis_points, 200);
    expectNotRaised(
      assess(token({ extensions: [transferFee(200, 200, EPOCH + 1n)] })),
      'TRANSFER_FEE_INCREASE_SCHEDULED',
      'the same rate scheduled again',
    );
  });

  it('TRANSFER_FEE_AUTHORITY: a fee config authority; not when only the withdraw authority is set', () => {
    expectRaised(
      assess(token({ extensions: [transferFee(0, 0, 0n, { config: AUTHORITY })] })),
      'TRANSFER_FEE_AUTHORITY',
      { fee_config_authority: AUTHORITY },
    );
    const withdrawOnly = assess(token({ extensions: [transferFee(0, 0, 0n, { withdraw: AUTHORITY })] }));
    expectNotRaised(withdrawOnly, 'TRANSFER_FEE_AUTHORITY', 'config authority all zeros');
    assert.deepEqual(withdrawOnly.flags, [], 'a 0 % fee nobody can change raises nothing');
  });

  const hook = (authority: Address, programId: Address): ExtensionArgs => ({
    __kind: 'TransferHook',
    authority,
    programId,
  });

  it('TRANSFER_HOOK_ACTIVE: a hook program runs on transfers; not an empty hook slot (PYUSD) with an authority', () => {
    const raised = assess(token({ extensions: [hook(NO_KEY, OTHER)] }));
    expectRaised(raised, 'TRANSFER_HOOK_ACTIVE', { transfer_hook_program: OTHER });
    expectNotRaised(raised, 'TRANSFER_HOOK_AUTHORITY', 'no hook authority');
    expectNotRaised(
      assess(token({ extensions: [hook(AUTHORITY, NO_KEY)] })),
      'TRANSFER_HOOK_ACTIVE',
      'no program',
    );
  });

  it('TRANSFER_HOOK_AUTHORITY: someone can set the hook; not a fixed hook with no authority', () => {
    const raised = assess(token({ extensions: [hook(AUTHORITY, NO_KEY)] }));
    expectRaised(raised, 'TRANSFER_HOOK_AUTHORITY', { transfer_hook_authority: AUTHORITY });
    expectNotRaised(
      assess(token({ extensions: [hook(NO_KEY, OTHER)] })),
      'TRANSFER_HOOK_AUTHORITY',
      'authority all zeros',
    );
    assert.deepEqual(assess(token({ extensions: [hook(NO_KEY, NO_KEY)] })).flags, [], 'an empty slot');
  });

  const defaultState = (state: T22AccountState): ExtensionArgs => ({ __kind: 'DefaultAccountState', state });

  it('DEFAULT_STATE_FROZEN: new accounts start frozen, floored at 0.85; not when they start initialized', () => {
    const raised = assess(token({ extensions: [defaultState(T22AccountState.Frozen)] }));
    expectRaised(raised, 'DEFAULT_STATE_FROZEN', { default_account_state: 'frozen' });
    assert.ok(raised.risk_score >= 0.85, `floored: ${raised.risk_score}`);
    assert.equal(raised.recommendation, TOKEN_ADVICE.do_not_interact);
    const initialized = assess(token({ extensions: [defaultState(T22AccountState.Initialized)] }));
    expectNotRaised(initialized, 'DEFAULT_STATE_FROZEN', 'default state initialized');
    assert.equal(initialized.risk_score, 0);
  });

  it('NON_TRANSFERABLE: a soulbound mint, floored at 0.85; not a Token-2022 mint without it', () => {
    const raised = assess(token({ extensions: [{ __kind: 'NonTransferable' }] }));
    expectRaised(raised, 'NON_TRANSFERABLE', { non_transferable: true });
    assert.ok(raised.risk_score >= 0.85, `floored: ${raised.risk_score}`);
    const other = assess(token({ extensions: [defaultState(T22AccountState.Initialized)] }));
    expectNotRaised(other, 'NON_TRANSFERABLE', 'Token-2022, other extension');
  });

  const pausable = (authority: Address | null, paused: boolean): ExtensionArgs => ({
    __kind: 'PausableConfig',
    authority,
    paused,
  });

  it('TOKEN_PAUSED: paused now, floored at 0.85 (even with no authority left to resume it); not pausable but running', () => {
    const raised = assess(token({ extensions: [pausable(AUTHORITY, true)] }));
    expectRaised(raised, 'TOKEN_PAUSED', { pause_authority: AUTHORITY });
    expectNotRaised(raised, 'PAUSABLE', 'TOKEN_PAUSED replaces it');
    assert.ok(raised.risk_score >= 0.85, `floored: ${raised.risk_score}`);
    expectRaised(assess(token({ extensions: [pausable(null, true)] })), 'TOKEN_PAUSED', {
      pause_authority: null,
    });
    expectNotRaised(
      assess(token({ extensions: [pausable(AUTHORITY, false)] })),
      'TOKEN_PAUSED',
      'not paused',
    );
  });

  it('PAUSABLE: an authority can pause; not when the pause authority is None', () => {
    const raised = assess(token({ extensions: [pausable(AUTHORITY, false)] }));
    expectRaised(raised, 'PAUSABLE', { pause_authority: AUTHORITY });
    assert.ok(raised.risk_score < 0.85, 'a possibility, not proof of harm: not floored');
    const none = assess(token({ extensions: [pausable(null, false)] }));
    expectNotRaised(none, 'PAUSABLE', 'no pause authority');
    assert.deepEqual(none.flags, []);
  });

  it('MINT_CLOSE_AUTHORITY: a close authority; not the zero key', () => {
    const close = (closeAuthority: Address) =>
      assess(token({ extensions: [{ __kind: 'MintCloseAuthority', closeAuthority }] }));
    expectRaised(close(AUTHORITY), 'MINT_CLOSE_AUTHORITY', { close_authority: AUTHORITY });
    expectNotRaised(close(NO_KEY), 'MINT_CLOSE_AUTHORITY', 'close authority all zeros');
  });

  it('CONFIDENTIAL_TRANSFERS: balances can be confidential, confidence −0.1; not the confidential fee extension alone', () => {
    const raised = assess(
      token({
        extensions: [
          {
            __kind: 'ConfidentialTransferMint',
            authority: AUTHORITY,
            autoApproveNewAccounts: false,
            auditorElgamalPubkey: null,
          },
        ],
      }),
    );
    expectRaised(raised, 'CONFIDENTIAL_TRANSFERS', { authority: AUTHORITY, auto_approve: false });
    assert.equal(raised.confidence, 0.9);
    const feeOnly = assess(
      token({
        extensions: [
          {
            __kind: 'ConfidentialTransferFee',
            authority: AUTHORITY,
            elgamalPubkey: OTHER,
            harvestToMintEnabled: true,
            withheldAmount: new Uint8Array(64),
          },
        ],
      }),
    );
    expectNotRaised(
      feeOnly,
      'CONFIDENTIAL_TRANSFERS',
      'ConfidentialTransferFee without ConfidentialTransferMint',
    );
    assert.equal(feeOnly.confidence, 1);
  });

  it('UNKNOWN_EXTENSION: a type past the last known one, or a known type that does not decode; not known extensions', () => {
    const known = token({ extensions: [{ __kind: 'NonTransferable' }] });
    const nextType =
      Math.max(...Object.values(ExtensionType).filter((v): v is number => typeof v === 'number')) + 1;
    const unknown = assess(withTlv(known, nextType, new Uint8Array([1, 2, 3])));
    expectRaised(unknown, 'UNKNOWN_EXTENSION', { extension_types: [nextType] });
    assert.ok(unknown.confidence < 1);
    assert.ok(unknown.flags.includes('NON_TRANSFERABLE'), 'the known entries are still read');
    // PermanentDelegate (12) with a 31-byte value: a known kind whose bytes do not decode.
    const broken = assess(withTlv(known, ExtensionType.PermanentDelegate, new Uint8Array(31)));
    expectRaised(broken, 'UNKNOWN_EXTENSION', { extension_types: [ExtensionType.PermanentDelegate] });
    const closest = assess(withTlv(known, ExtensionType.PermanentDelegate, new Uint8Array(32)));
    expectNotRaised(closest, 'UNKNOWN_EXTENSION', 'a well-formed known extension');
    assert.equal(closest.confidence, 1);
  });

  const t22Metadata = (updateAuthority: Address | null): ExtensionArgs[] => [
    { __kind: 'MetadataPointer', authority: null, metadataAddress: MINT },
    {
      __kind: 'TokenMetadata',
      updateAuthority,
      mint: MINT,
      name: 'Own Metadata',
      symbol: 'OWN',
      uri: 'https://example.invalid/own.json',
      additionalMetadata: new Map(),
    },
  ];

  it('METADATA_MUTABLE: Metaplex isMutable, or a Token-2022 update authority; not the same accounts made immutable', () => {
    expectRaised(
      assess(token({ metaplex: { updateAuthority: AUTHORITY, isMutable: true } })),
      'METADATA_MUTABLE',
      { update_authority: AUTHORITY, source: 'metaplex' },
    );
    expectNotRaised(
      assess(token({ metaplex: { updateAuthority: AUTHORITY, isMutable: false } })),
      'METADATA_MUTABLE',
      'Metaplex isMutable false, update authority still named',
    );
    const own = assess(token({ extensions: t22Metadata(OTHER), metaplex: null }));
    expectRaised(own, 'METADATA_MUTABLE', { update_authority: OTHER, source: 'token-2022 metadata' });
    assert.match(own.summary, /\(OWN\)/, 'the symbol names the token');
    expectNotRaised(
      assess(token({ extensions: t22Metadata(null), metaplex: null })),
      'METADATA_MUTABLE',
      'Token-2022 metadata with no update authority',
    );
  });

  it('METADATA_MISSING: nothing at the PDA, or an account there not owned by Token Metadata; not Token-2022 metadata alone', () => {
    const none = assess(token({ metaplex: null }));
    expectRaised(none, 'METADATA_MISSING', { metadata_account: METADATA });
    assert.match(none.summary, /^Token \w{4}…\w{4}: /, 'no name to show');
    const real = token().metadataAccount!;
    expectRaised(
      assess(token({ facts: { metadataAccount: { ...real, owner: SYSTEM_PROGRAM } } })),
      'METADATA_MISSING',
      { metadata_account: METADATA },
    );
    expectNotRaised(
      assess(token({ extensions: t22Metadata(null), metaplex: null })),
      'METADATA_MISSING',
      'the mint carries its own metadata',
    );
    expectNotRaised(assess(token()), 'METADATA_MISSING', 'a Metaplex account');
  });

  it('SUPPLY_ZERO: no tokens; not a supply of 1 unit, nor wrapped SOL whose mint always shows 0', () => {
    expectRaised(assess(token({ supply: 0n, holders: [] })), 'SUPPLY_ZERO', { supply: '0' });
    expectNotRaised(assess(token({ supply: 1n, holders: [] })), 'SUPPLY_ZERO', 'one unit exists');
    const wsol = assess(token({ mint: WSOL_MINT, supply: 0n, holders: [] }));
    expectNotRaised(wsol, 'SUPPLY_ZERO', 'the native mint');
    assert.equal((wsol.evidence as Record<string, unknown>).supply, '0');
  });

  it('TOKEN_NEW: under 7 days, full strength under 24 hours; not at exactly 7 days, nor from a full (truncated) page', () => {
    const young = assess(token({ facts: { history: dated(24 * HOUR - 1) } }));
    expectRaised(young, 'TOKEN_NEW', {
      created_at: new Date((NOW - 24 * HOUR + 1) * 1000).toISOString(),
      age_hours: 24,
      creation_signature: CREATION,
    });
    assert.equal(weightOf(young, 'TOKEN_NEW'), 0.3, 'full strength just under a day');
    const aDay = assess(token({ facts: { history: dated(24 * HOUR) } }));
    assert.equal(weightOf(aDay, 'TOKEN_NEW'), 0.1, 'a third from 24 hours on');
    const almostAWeek = assess(token({ facts: { history: dated(7 * DAY - 1) } }));
    assert.equal(weightOf(almostAWeek, 'TOKEN_NEW'), 0.1);

    expectNotRaised(assess(token({ facts: { history: dated(7 * DAY) } })), 'TOKEN_NEW', 'exactly 7 days');
    const busy = assess(token({ facts: { history: dated(2 * HOUR, true) } }));
    expectNotRaised(busy, 'TOKEN_NEW', 'a full page: at least 2 hours old, maybe much older');
    const evidence = busy.evidence as Record<string, unknown>;
    assert.equal(evidence.age_at_least_hours, 2);
    assert.equal(evidence.created_at, null, 'never a guessed creation date');
    assert.deepEqual(busy.flags, []);
  });

  it('TOKEN_AGE_UNAVAILABLE: no answer, no transaction, no block time; not a busy (truncated) but dated history', () => {
    const cases = [
      [null, 'the RPC did not answer getSignaturesForAddress for the mint'],
      [
        { count: 0, oldest: null, truncated: false },
        'the RPC knows no transaction naming the mint (history pruned or never indexed)',
      ],
      [
        { count: 3, oldest: { signature: CREATION, blockTime: null }, truncated: false },
        'the oldest transaction read has no block time',
      ],
    ] as const;
    for (const [history, reason] of cases) {
      const result = assess(token({ facts: { history } }));
      expectRaised(result, 'TOKEN_AGE_UNAVAILABLE', { reason });
      assert.equal(result.confidence, 0.9);
      assert.equal((result.evidence as Record<string, unknown>).created_at, null);
    }
    const busy = assess(token({ facts: { history: dated(400 * DAY, true) } }));
    expectNotRaised(busy, 'TOKEN_AGE_UNAVAILABLE', 'a full page is a lower bound, not an unknown');
    assert.equal(busy.confidence, 1);
  });

  it('HOLDER_TOP1_HIGH: 20 % of the circulating supply, ramping to full at 50 %; not one unit under 20 %, nor a pool vault', () => {
    const at20 = assess(token({ holders: crowd([holds(OTHER, 2000n)]) }));
    expectRaised(at20, 'HOLDER_TOP1_HIGH', { top1_share: 0.2, top1_owner: OTHER, excluded: [] });
    assert.equal(weightOf(at20, 'HOLDER_TOP1_HIGH'), 0.006, 'just over zero at the warning threshold');
    const at35 = assess(token({ holders: crowd([holds(OTHER, 3500n)], PCT) }));
    assert.equal(weightOf(at35, 'HOLDER_TOP1_HIGH'), 0.306, 'half way (+0.01) at 35 %');
    const at50 = assess(token({ holders: crowd([holds(OTHER, 5000n)], PCT) }));
    assert.equal(weightOf(at50, 'HOLDER_TOP1_HIGH'), 0.6, 'full strength at 50 %');

    const under = assess(token({ holders: crowd([{ owner: OTHER, amount: 20n * PCT - 1n }]) }));
    expectNotRaised(under, 'HOLDER_TOP1_HIGH', '19.9999 %');

    // Shares are of the float: with half the supply in a pool vault, 10 % of supply is 20 % of float.
    const vault = { token_account: TOKEN_ACCOUNTS[0]!, owner: POOL_VAULT, amount: String(50n * PCT) };
    const poolAndWhale = assess(
      token({ holders: crowd([holds(POOL_VAULT, 5000n), holds(OTHER, 1000n)], PCT) }),
    );
    expectRaised(poolAndWhale, 'HOLDER_TOP1_HIGH', {
      top1_share: 0.2,
      top1_owner: OTHER,
      excluded: [{ ...vault, why: 'held by a program-controlled address (pool, vault, curve or lock)' }],
    });
    const burned = assess(token({ holders: crowd([holds(INCINERATOR, 5000n), holds(OTHER, 1000n)], PCT) }));
    expectRaised(burned, 'HOLDER_TOP1_HIGH', {
      top1_share: 0.2,
      top1_owner: OTHER,
      excluded: [{ ...vault, owner: INCINERATOR, why: 'burned (incinerator)' }],
    });
    // The false positive the model avoids: a pool vault holding 90 % is not a whale.
    const pool = assess(token({ holders: crowd([holds(POOL_VAULT, 9000n)], PCT / 4n) }));
    expectNotRaised(pool, 'HOLDER_TOP1_HIGH', 'the largest holder is a program-controlled vault');
    assert.equal((pool.evidence as { excluded: { owner: string }[] }).excluded[0]!.owner, POOL_VAULT);
  });

  it('HOLDER_TOP10_HIGH: ten holders with 50 % of the float, full at 80 %; not one unit under, nor 50 % raw with a pool set aside', () => {
    const ten = (each: bigint, first = each) =>
      crowd(
        [
          { owner: WALLETS[0]!, amount: first },
          ...WALLETS.slice(1, 10).map((owner) => ({ owner, amount: each })),
        ],
        PCT,
      );
    const at50 = assess(token({ holders: ten(5n * PCT) }));
    expectRaised(at50, 'HOLDER_TOP10_HIGH', { top10_share: 0.5, top10_share_raw: 0.5, excluded: [] });
    expectNotRaised(at50, 'HOLDER_TOP1_HIGH', 'each holds 5 %');
    assert.equal(weightOf(at50, 'HOLDER_TOP10_HIGH'), 0.003);
    assert.equal(
      weightOf(assess(token({ holders: ten(8n * PCT) })), 'HOLDER_TOP10_HIGH'),
      0.3,
      'full at 80 %',
    );

    expectNotRaised(
      assess(token({ holders: ten(5n * PCT, 5n * PCT - 1n) })),
      'HOLDER_TOP10_HIGH',
      '49.9999 %',
    );

    // 50 % in a pool vault, ten wallets with 2.4 % each: 71.6 % raw, but 48 % of the float.
    const pooled = assess(
      token({
        holders: [holds(POOL_VAULT, 5000n), ...WALLETS.slice(0, 10).map((owner) => holds(owner, 240n))],
      }),
    );
    expectNotRaised(pooled, 'HOLDER_TOP10_HIGH', '48 % of the circulating supply');
    const evidence = pooled.evidence as Record<string, unknown>;
    assert.equal(evidence.top10_share, 0.48);
    assert.equal(evidence.top10_share_raw, 0.716, 'the raw share is kept');
  });

  it('AUTHORITY_HOLDS_SUPPLY: the mint or freeze authority holds 5 % of the supply; not 4.99 %, nor a revoked authority', () => {
    const minter = assess(token({ mintAuthority: AUTHORITY, holders: crowd([holds(AUTHORITY, 500n)]) }));
    expectRaised(minter, 'AUTHORITY_HOLDS_SUPPLY', { authority: AUTHORITY, share: 0.05 });
    const freezer = assess(token({ freezeAuthority: OTHER, holders: crowd([holds(OTHER, 700n)]) }));
    expectRaised(freezer, 'AUTHORITY_HOLDS_SUPPLY', { authority: OTHER, share: 0.07 });
    // One key holding both powers is one holding, raised once.
    const both = assess(
      token({
        mintAuthority: AUTHORITY,
        freezeAuthority: AUTHORITY,
        holders: crowd([holds(AUTHORITY, 500n)]),
      }),
    );
    expectRaised(both, 'AUTHORITY_HOLDS_SUPPLY', { authority: AUTHORITY, share: 0.05 });
    assert.equal(weightOf(both, 'AUTHORITY_HOLDS_SUPPLY'), 0.6);
    // Two authorities both holding: one flag, naming the larger holding.
    const two = assess(
      token({
        mintAuthority: AUTHORITY,
        freezeAuthority: OTHER,
        holders: crowd([holds(AUTHORITY, 600n), holds(OTHER, 900n)]),
      }),
    );
    expectRaised(two, 'AUTHORITY_HOLDS_SUPPLY', { authority: OTHER, share: 0.09 });

    const under = assess(
      token({ mintAuthority: AUTHORITY, holders: crowd([{ owner: AUTHORITY, amount: 5n * PCT - 1n }]) }),
    );
    expectNotRaised(under, 'AUTHORITY_HOLDS_SUPPLY', '4.9999 %');
    const revoked = assess(
      withStaleKeys(token({ holders: crowd([holds(AUTHORITY, 1500n)]) }), { mint: AUTHORITY }),
    );
    expectNotRaised(revoked, 'AUTHORITY_HOLDS_SUPPLY', 'the holder was the authority once (stale key bytes)');
  });

  it('FROZEN_HOLDERS: a large holder frozen with a balance; not a frozen empty account, nor a thawed one', () => {
    const holders = crowd([holds(OTHER, 300n, { frozen: true })]);
    const raised = assess(token({ freezeAuthority: AUTHORITY, holders }));
    expectRaised(raised, 'FROZEN_HOLDERS', { frozen_accounts: [TOKEN_ACCOUNTS[0]] });
    expectNotRaised(
      assess(
        token({
          freezeAuthority: AUTHORITY,
          holders: [...crowd().slice(0, 19), { owner: OTHER, amount: 0n, frozen: true }],
        }),
      ),
      'FROZEN_HOLDERS',
      'frozen, but holding nothing',
    );
    expectNotRaised(
      assess(token({ freezeAuthority: AUTHORITY, holders: crowd([holds(OTHER, 300n)]) })),
      'FROZEN_HOLDERS',
      'the same holder, not frozen',
    );
  });

  it('LARGE_HOLDER_DELEGATED: a delegate approved for 1 unit; not a delegate approved for 0', () => {
    const delegated = (delegatedAmount: bigint) =>
      assess(token({ holders: crowd([holds(OTHER, 300n, { delegate: AUTHORITY, delegatedAmount })]) }));
    expectRaised(delegated(1n), 'LARGE_HOLDER_DELEGATED', {
      token_account: TOKEN_ACCOUNTS[0],
      delegate: AUTHORITY,
      delegated_amount: '1',
    });
    expectNotRaised(delegated(0n), 'LARGE_HOLDER_DELEGATED', 'a delegate with no allowance');
  });

  it('TRUSTED_ISSUER: every listed mint, with its centralisation flags kept at ×0.2; not a look-alike one byte away', () => {
    for (const [mint, issuer] of TRUSTED_ISSUERS) {
      const result = assess(token({ mint: mint as Address }));
      expectRaised(result, 'TRUSTED_ISSUER', { issuer: issuer.label });
      assert.equal(weightOf(result, 'TRUSTED_ISSUER'), 0, 'info: it adds nothing');
    }
    const powers = {
      mintAuthority: AUTHORITY,
      freezeAuthority: OTHER,
      extensions: [{ __kind: 'PermanentDelegate', delegate: OTHER }] as ExtensionArgs[],
      holders: crowd([holds(WALLETS[0]!, 5000n)], PCT),
    };
    const usdc = assess(token({ ...powers, mint: USDC_MINT }));
    const lookAlike = assess(token({ ...powers, mint: USDC_LOOK_ALIKE }));
    expectNotRaised(lookAlike, 'TRUSTED_ISSUER', 'one byte off USDC');
    for (const code of ['MINT_AUTHORITY_ACTIVE', 'FREEZE_AUTHORITY_ACTIVE', 'PERMANENT_DELEGATE'] as const) {
      assert.ok(usdc.flags.includes(code), `${code} is shown, not hidden`);
      const full = weightOf(lookAlike, code) as number;
      assert.equal(weightOf(usdc, code), Math.round(full * 0.2 * 1000) / 1000, `${code} weighted ×0.2`);
    }
    assert.equal(
      weightOf(usdc, 'HOLDER_TOP1_HIGH'),
      weightOf(lookAlike, 'HOLDER_TOP1_HIGH'),
      'holders are not dampened',
    );
    assert.ok(usdc.risk_score < lookAlike.risk_score, `${usdc.risk_score} < ${lookAlike.risk_score}`);
  });

  it('HOLDERS_UNAVAILABLE: the largest holders were refused, confidence −0.3; not an empty holder list', () => {
    const refused = assess(token({ holders: null }));
    expectRaised(refused, 'HOLDERS_UNAVAILABLE', {
      reason: 'getTokenLargestAccounts: Too many accounts requested',
    });
    assert.equal(refused.confidence, 0.7);
    expectRaised(assess(token({ holders: null, facts: { largestError: null } })), 'HOLDERS_UNAVAILABLE', {
      reason: 'unknown',
    });
    const empty = assess(token({ holders: [] }));
    expectNotRaised(empty, 'HOLDERS_UNAVAILABLE', 'an answer with no holders is an answer');
    assert.equal(empty.confidence, 1);
  });

  describe('the simulated transfer (transfer-simulation/assess.ts)', () => {
    const HOOK = wallet('risk-scan test hook program');
    const hooked = (extra: ExtensionArgs[] = []): ExtensionArgs[] => [
      { __kind: 'TransferHook', authority: NO_KEY, programId: HOOK },
      ...extra,
    ];
    const run = (over: Partial<SimulatedTransfer> = {}): SimulatedTransfer => ({
      tokenAccount: TOKEN_ACCOUNTS[0]!,
      owner: WALLETS[0]!,
      balance: 10_000_000n,
      amount: 1_000_000n,
      destination: OTHER,
      err: null,
      logs: [],
      sourceAfter: 9_000_000n,
      destinationAfter: 1_000_000n,
      ...over,
    });
    const simulated = (runs: SimulatedTransfer[], extensions = hooked()) =>
      assess(
        token({
          extensions,
          facts: { transferSimulation: { status: 'simulated', why: 'hook', hookProgram: HOOK, runs } },
        }),
      );
    const refusal = [
      `Program ${HOOK} invoke [2]`,
      `Program ${HOOK} failed: custom program error: 0x1770`,
      'Program TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb failed: custom program error: 0x1770',
    ];
    const SIM_FLAGS = ['TRANSFER_BLOCKED', 'TRANSFER_UNDECLARED_CUT', 'TRANSFER_SIMULATION_UNAVAILABLE'];

    it('TRANSFER_BLOCKED: the transfer instruction failed (the hook refused); floor risk; not a failure creating the recipient account, nor a transaction that never ran', () => {
      const blocked = simulated([
        run({
          err: { InstructionError: [1, { Custom: 6000 }] },
          logs: refusal,
          sourceAfter: null,
          destinationAfter: null,
        }),
      ]);
      expectRaised(blocked, 'TRANSFER_BLOCKED', {
        failing_program: HOOK,
        error: 'custom program error 0x1770',
        logs: refusal,
        holder: TOKEN_ACCOUNTS[0],
        amount: '1000000',
      });
      assert.ok(blocked.risk_score >= 0.85, `floored: ${blocked.risk_score}`);
      // Token-2022's own refusals are named.
      const frozen = simulated([
        run({
          err: { InstructionError: [1, { Custom: 17 }] },
          logs: ['Program TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb failed: custom program error: 0x11'],
        }),
      ]);
      assert.match(String(flagEvidenceOf(frozen).TRANSFER_BLOCKED!.error), /^AccountFrozen/);

      const ataFailed = simulated([run({ err: { InstructionError: [0, { Custom: 1 }] } })]);
      expectNotRaised(ataFailed, 'TRANSFER_BLOCKED', 'the recipient account could not be paid for');
      expectRaised(ataFailed, 'TRANSFER_SIMULATION_UNAVAILABLE', {
        reason: "creating the recipient's token account failed (custom program error 0x1)",
      });
      const neverRan = simulated([run({ err: 'AccountNotFound' })]);
      expectNotRaised(neverRan, 'TRANSFER_BLOCKED', 'the fee payer has no SOL');
      assert.ok(neverRan.flags.includes('TRANSFER_SIMULATION_UNAVAILABLE'));
      // A refusal for either holder is the answer, whichever ran first.
      const second = simulated([
        run(),
        run({ err: { InstructionError: [1, { Custom: 6000 }] }, logs: refusal }),
      ]);
      assert.ok(second.flags.includes('TRANSFER_BLOCKED'));
      const fallback = simulated([run({ err: 'InsufficientFundsForFee' }), run()]);
      for (const code of SIM_FLAGS) assert.ok(!fallback.flags.includes(code), `fallback holder: ${code}`);
    });

    it('TRANSFER_UNDECLARED_CUT: one unit less than the amount minus the declared fee (ceil, capped); not exactly the fee', () => {
      // 100 bps of 1 000 000 = 10 000 declared.
      const fee = hooked([transferFee(100, 100, 0n)]);
      const exact = simulated([run({ destinationAfter: 990_000n })], fee);
      expectNotRaised(exact, 'TRANSFER_UNDECLARED_CUT', 'exactly the declared fee');
      const cut = simulated([run({ destinationAfter: 989_999n })], fee);
      expectRaised(cut, 'TRANSFER_UNDECLARED_CUT', {
        sent: '1000000',
        received: '989999',
        declared_fee: '10000',
        undeclared_cut: '1',
        holder: TOKEN_ACCOUNTS[0],
      });
      assert.equal(weightOf(cut, 'TRANSFER_UNDECLARED_CUT'), 0.6);
      // Without a fee extension, any shortfall; from 10 % it is critical.
      const tenth = simulated([run({ destinationAfter: 900_000n })]);
      assert.equal(weightOf(tenth, 'TRANSFER_UNDECLARED_CUT'), 0.9);
      expectNotRaised(simulated([run()]), 'TRANSFER_UNDECLARED_CUT', 'all of it arrived');
      // The fee is rounded up (1 unit at 1 bps costs 1) and capped at the maximum in force (7 000 000).
      expectNotRaised(
        simulated(
          [run({ amount: 1n, balance: 1n, sourceAfter: 0n, destinationAfter: 0n })],
          hooked([transferFee(1, 1, 0n)]),
        ),
        'TRANSFER_UNDECLARED_CUT',
        'a fee rounded up',
      );
      const capped = simulated(
        [
          run({
            amount: 1_000_000_000n,
            balance: 1_000_000_000n,
            sourceAfter: 0n,
            destinationAfter: 993_000_000n,
          }),
        ],
        hooked([transferFee(5000, 5000, 0n)]),
      );
      expectNotRaised(capped, 'TRANSFER_UNDECLARED_CUT', 'the fee capped at its maximum');
      const overCap = simulated(
        [
          run({
            amount: 1_000_000_000n,
            balance: 1_000_000_000n,
            sourceAfter: 0n,
            destinationAfter: 992_999_999n,
          }),
        ],
        hooked([transferFee(5000, 5000, 0n)]),
      );
      assert.ok(overCap.flags.includes('TRANSFER_UNDECLARED_CUT'), 'one unit past the capped fee');
      // An unknown epoch: the higher of the two scheduled fees explains the shortfall.
      const unknownEpoch = assess(
        token({
          extensions: hooked([transferFee(100, 300, EPOCH + 2n)]),
          facts: {
            epoch: null,
            transferSimulation: {
              status: 'simulated',
              why: 'hook',
              hookProgram: HOOK,
              runs: [run({ destinationAfter: 970_000n })],
            },
          },
        }),
      );
      expectNotRaised(unknownEpoch, 'TRANSFER_UNDECLARED_CUT', 'the higher fee explains it');
    });

    it('TRANSFER_SIMULATION_UNAVAILABLE: lowers confidence and never raises risk; not when the static read proves the answer', () => {
      const known = assess(token({ extensions: hooked() }));
      const unavailable = assess(
        token({
          extensions: hooked(),
          facts: { transferSimulation: { status: 'unavailable', why: 'hook', reason: 'the RPC refused' } },
        }),
      );
      expectRaised(unavailable, 'TRANSFER_SIMULATION_UNAVAILABLE', { reason: 'the RPC refused' });
      assert.equal(unavailable.risk_score, known.risk_score, 'never raises risk');
      assert.ok(unavailable.confidence < known.confidence);
      assert.equal(weightOf(unavailable, 'TRANSFER_SIMULATION_UNAVAILABLE'), 0);
      const skipped = assess(
        token({ facts: { transferSimulation: { status: 'skipped', why: 'SPL Token' } } }),
      );
      expectNotRaised(skipped, 'TRANSFER_SIMULATION_UNAVAILABLE', 'proven statically');
      assert.deepEqual((skipped.evidence as Record<string, unknown>).transfer_simulation, {
        ran: false,
        why: 'SPL Token',
      });
    });
  });

  // Every catalog flag having a raising test is enforced in flags.test.ts.
});

describe('assessToken (pure), missing data', () => {
  const variants: Record<string, TokenSpec> = {
    clean: {},
    'live authorities': { mintAuthority: AUTHORITY, freezeAuthority: AUTHORITY },
    'transfer fee and permanent delegate': {
      extensions: [
        transferFee(500, 500, 0n, { config: AUTHORITY }),
        { __kind: 'PermanentDelegate', delegate: OTHER },
      ],
    },
    'mutable metadata': { metaplex: { updateAuthority: AUTHORITY, isMutable: true } },
    'trusted issuer': { mint: USDC_MINT, mintAuthority: AUTHORITY },
    'non-transferable': { extensions: [{ __kind: 'NonTransferable' }] },
  };
  const unknownHistories: readonly (MintHistory | null)[] = [
    null,
    { count: 0, oldest: null, truncated: false },
    { count: 5, oldest: { signature: CREATION, blockTime: null }, truncated: false },
  ];

  for (const [name, spec] of Object.entries(variants)) {
    it(`${name}: an unreadable history or holder list lowers confidence and never lowers the score`, () => {
      const known = assess(token(spec));
      const cases: [string, TokenFacts][] = [
        ...unknownHistories.map((history, i): [string, TokenFacts] => [
          `history ${i}`,
          token({ ...spec, facts: { ...spec.facts, history } }),
        ]),
        ['holders', token({ ...spec, holders: null })],
        ['history and holders', token({ ...spec, holders: null, facts: { ...spec.facts, history: null } })],
      ];
      for (const [what, facts] of cases) {
        const blind = assess(facts);
        assert.ok(blind.confidence < known.confidence, `${what}: ${blind.confidence} < ${known.confidence}`);
        assert.ok(
          blind.risk_score >= known.risk_score,
          `${what}: ${blind.risk_score} >= ${known.risk_score}`,
        );
        for (const code of known.flags) assert.ok(blind.flags.includes(code), `${what}: ${code} kept`);
      }
      const both = assess(cases.at(-1)![1]);
      assert.ok(both.confidence < assess(token({ ...spec, holders: null })).confidence, 'penalties compound');
    });
  }

  it('unknown is scored above a known-old, spread token: the missing data is itself a low flag', () => {
    const known = assess(token());
    const undated = assess(token({ facts: { history: null } }));
    const unread = assess(token({ holders: null }));
    assert.ok(undated.risk_score > known.risk_score);
    assert.ok(unread.risk_score > known.risk_score);
  });
});

describe('assessToken (pure), issuer control: who holds the powers, and what it means', () => {
  const powers: TokenSpec = {
    mintAuthority: AUTHORITY,
    freezeAuthority: AUTHORITY,
    extensions: [{ __kind: 'PermanentDelegate', delegate: AUTHORITY }],
  };

  it('a trusted issuer: the summary and recommendation name it and its powers; score and flags as without the words', () => {
    const usdc = token({ ...powers, mint: USDC_MINT });
    const worded = assess(usdc);
    const generic = assessToken(usdc, null);
    assert.equal(worded.risk_score, generic.risk_score, 'the words never change the score');
    assert.deepEqual(worded.flags, generic.flags);
    assert.equal(generic.recommendation, TOKEN_ADVICE[bucketOf(generic.risk_score)]);
    assert.match(
      worded.summary,
      /: (low|moderate|high) risk, from the powers its issuer Circle holds over it: the permanent delegate, mint authority and freeze authority\.$/,
    );
    assert.equal(
      worded.recommendation,
      "Circle, the issuer of USDC, holds its permanent delegate, mint authority and freeze authority: it can move or burn any holder's tokens (seize balances), mint more tokens and freeze any holder's balance, as regulated stablecoins do. Your exposure is to Circle, not to an anonymous key: hold USDC if you accept Circle as your counterparty.",
    );
  });

  it('the same powers on a look-alike mint one byte away keep the strong, generic warning', () => {
    const lookAlike = assess(token({ ...powers, mint: USDC_LOOK_ALIKE }));
    const bucket = bucketOf(lookAlike.risk_score);
    assert.ok(bucket === 'avoid' || bucket === 'do_not_interact', bucket);
    assert.equal(lookAlike.recommendation, TOKEN_ADVICE[bucket]);
    assert.doesNotMatch(`${lookAlike.summary} ${lookAlike.recommendation}`, /Circle|issuer of/);
    assert.match(lookAlike.summary, /driven by PERMANENT_DELEGATE/);
  });

  it('risks beside the issuer keep their weight: watched at caution, stated first when they alone mean avoid', () => {
    const whale = assess(token({ ...powers, mint: USDC_MINT, holders: crowd([holds(OTHER, 3000n)]) }));
    assert.match(whale.recommendation, /^Circle, the issuer of USDC, holds its /);
    assert.match(
      whale.recommendation,
      /Also watch: one holder \(.+\) owns 30\.0 % of the circulating supply\.$/,
    );
    const paused = assess(
      token({
        mint: USDC_MINT,
        mintAuthority: AUTHORITY,
        extensions: [{ __kind: 'PausableConfig', authority: AUTHORITY, paused: true }],
      }),
    );
    assert.ok(paused.risk_score >= 0.85, 'a paused token is floored, issuer or not');
    assert.ok(
      paused.recommendation.startsWith(
        `${TOKEN_ADVICE.do_not_interact} Beside that, Circle, the issuer of USDC,`,
      ),
      paused.recommendation,
    );
    assert.match(
      paused.summary,
      /: critical risk, driven by TOKEN_PAUSED, beside the powers its issuer Circle/,
    );
  });

  it('the governance hook: a recognised multisig answers for the powers it holds, and only those', () => {
    const squads = {
      kind: 'governance',
      name: 'a Squads v4 multisig (3 of 5 members)',
      authorities: [AUTHORITY],
    } as const;
    const heldByGroup = assessToken(token({ mintAuthority: AUTHORITY }), squads);
    assert.equal(heldByGroup.risk_score, assessToken(token({ mintAuthority: AUTHORITY }), null).risk_score);
    assert.equal(
      heldByGroup.recommendation,
      'A Squads v4 multisig (3 of 5 members) holds its mint authority: it can mint more tokens. No single key can use these powers, but its members acting together can: your exposure is to that group: hold the token only if you trust it.',
    );
    // The freeze authority is a single key outside the group: the strong warning stands.
    const split = assessToken(token({ mintAuthority: AUTHORITY, freezeAuthority: OTHER }), squads);
    assert.ok(split.recommendation.startsWith(`${TOKEN_ADVICE.avoid} Beside that, a Squads v4 multisig`));
    assert.match(split.summary, /driven by FREEZE_AUTHORITY_ACTIVE, beside the powers a Squads v4 multisig/);
    // A group holding none of the raised powers changes nothing.
    const unrelated = assessToken(token({ freezeAuthority: OTHER }), squads);
    assert.equal(unrelated.recommendation, TOKEN_ADVICE[bucketOf(unrelated.risk_score)]);
    assert.equal(typeof issuerControlWording(squads, TOKEN_ADVICE), 'function');
  });
});
