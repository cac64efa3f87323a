/**
 * SPL Governance (Realms) accounts, from the program's Borsh state (solana-program-library
 * governance/program/src/state: governance.rs, realm.rs, enums.rs).
 *
 * A program governed by a DAO has its upgrade authority on a Governance account — the account
 * itself, a PDA ["program-governance" | "account-governance" | "mint-governance" |
 * "token-governance", realm, governed_account] — or on that governance's native treasury
 * ["native-treasury", governance], which the Realms UI presents as the DAO's wallet. Either way
 * an upgrade needs a proposal passing the governance's vote threshold, then the hold-up time.
 *
 * Governance: account_type u8 | realm | governed_account | proposals_count u32 | config, where
 * config = community_vote_threshold VoteThreshold | min_community_weight u64 |
 * min_transaction_hold_up_time u32 | voting time u32 | community_vote_tipping u8 |
 * council_vote_threshold VoteThreshold | council_veto_vote_threshold VoteThreshold |
 * min_council_weight u64 | council_vote_tipping u8 (the prefix every version shares; V1 accounts
 * have a zero proposal_cool_off_time u32 where V2 has the council thresholds, which the program
 * reads as "council uses the community rules" — done here too).
 * VoteThreshold = 0 YesVotePercentage(u8) | 1 QuorumPercentage(u8) | 2 Disabled (Borsh enum).
 */
import {
  type Address,
  addDecoderSizePrefix,
  address,
  fixDecoderSize,
  getAddressDecoder,
  getAddressEncoder,
  getBytesDecoder,
  getDiscriminatedUnionDecoder,
  getOptionDecoder,
  getStructDecoder,
  getU8Decoder,
  getU16Decoder,
  getU32Decoder,
  getU64Decoder,
  getUnitDecoder,
  getUtf8Decoder,
  unwrapOption,
} from '@solana/kit';
import { findProgramDerivedAddress } from '../program-address.js';
import { PYTH_GOVERNANCE_PROGRAM, SPL_GOVERNANCE_PROGRAM } from '../programs.js';
import { type DecodeResult, notDecoded, tryDecode } from './result.js';

/**
 * Deployments of the governance program: the shared one, Pyth's, and the DAO-owned instances
 * listed by a public Realms positions integration (Marinade GovMai…, Mango GqTPL6…, Jupiter
 * JPGov…, Jito jtogv…, …), all running the same account layout. An authority is recognised only
 * when its governance account is owned by one of these.
 */
export const SPL_GOVERNANCE_DEPLOYMENTS: readonly Address[] = [
  SPL_GOVERNANCE_PROGRAM,
  PYTH_GOVERNANCE_PROGRAM,
  ...[
    '4ruGZqLoPVKX27Qm91Qjsqt5AzCtLrhmjKT8ubwHiVZu',
    'A7kmu2kUcnQwAVn8B4znQmGJeUrsJ1WEhYVMtmiBLkEr',
    'AEauWRrpn9Cs6GXujzdp1YhMmv2288kBt3SdEcPYEerr',
    'AVoAYTs36yB5izAaBkxRG67wL1AMwG3vo41hKtUSb8is',
    'DcG2PZTnj8s4Pnmp7xJswniCskckU5E6XsrKuyD7NYFK',
    'Di9ZVJeJrRZdQEWzAFYmfjukjR5dUQb7KMaDmv34rNJg',
    'GMnke6kxYvqoAXgbFGnu84QzvNHoqqTnijWSXYYTFQbB',
    'Ghope52FuF6HU3AAhJuAAyS2fiqbVhkAotb7YprL5tdS',
    'GoVERLMGbGF8kwAwhyNgF1BQ2uyQPawHCWbnFRmLZCf',
    'GovHgfDPyQ1GwazJTDY2avSVY8GGcpmCapmmCsymRaGe',
    'GovMaiHfpVPw8BAM1mbdzgmSZYDw2tdP32J2fapoQoYs',
    'GqTPL6qRf5aUuqscLh8Rg2HTxPUXfhhAXDptTLhp1t2J',
    'J9uWvULFL47gtCPvgR3oN7W357iehn5WF2Vn9MJvcSxz',
    'JPGov2SBA6f7XSJF5R4Si5jEJekGiyrwP2m7gSEqLUs',
    'MGovW65tDhMMcpEmsegpsdgvzb6zUwGsNjhXFxRAnjd',
    'dgov7NC8iaumWw3k8TkmLDybvZBCmd1qwxgLAGAsWxf',
    'hgovkRU6Ghe1Qoyb54HdSLdqN7VtxaifBzRmh9jtd3S',
    'jdaoDN37BrVRvxuXSeyR7xE5Z9CAoQApexGrQJbnj6V',
    'jtogvBNH3WBSWDYD5FJfQP2ZxNTuf82zL8GkEhPeaJx',
  ].map((id) => address(id)),
];

export const isGovernanceDeployment = (program: Address): boolean =>
  SPL_GOVERNANCE_DEPLOYMENTS.includes(program);

export type GovernanceKind = 'account' | 'program' | 'mint' | 'token';

/** GovernanceAccountType values of governance accounts, V1 and V2, and the PDA prefix of each. */
const GOVERNANCE_TYPES: Readonly<Record<number, { kind: GovernanceKind; version: 1 | 2 }>> = {
  3: { kind: 'account', version: 1 },
  4: { kind: 'program', version: 1 },
  9: { kind: 'mint', version: 1 },
  10: { kind: 'token', version: 1 },
  18: { kind: 'account', version: 2 },
  19: { kind: 'program', version: 2 },
  20: { kind: 'mint', version: 2 },
  21: { kind: 'token', version: 2 },
};
const REALM_TYPES = new Set([1, 16]);

export type VoteThreshold =
  | { readonly type: 'yes-vote-percentage'; readonly percent: number }
  | { readonly type: 'quorum-percentage'; readonly percent: number }
  | { readonly type: 'disabled' };
export type VoteTipping = 'strict' | 'early' | 'disabled';

export interface GovernanceConfig {
  readonly communityVoteThreshold: VoteThreshold;
  readonly minCommunityWeightToCreateProposal: bigint;
  /** Seconds a passed proposal waits before its transactions can run. */
  readonly minTransactionHoldUpSeconds: number;
  /** Seconds a proposal is open for votes (max_voting_time, voting_base_time since v3.1). */
  readonly votingSeconds: number;
  readonly communityVoteTipping: VoteTipping;
  readonly councilVoteThreshold: VoteThreshold;
  readonly councilVetoVoteThreshold: VoteThreshold;
  readonly minCouncilWeightToCreateProposal: bigint;
  readonly councilVoteTipping: VoteTipping;
}

export interface Governance {
  readonly kind: GovernanceKind;
  readonly version: 1 | 2;
  readonly realm: Address;
  /** The governed account, or (v3 "account" governances) only a PDA seed. */
  readonly governedAccount: Address;
  readonly proposalsCount: number;
  readonly config: GovernanceConfig;
}

const TIPPING: readonly VoteTipping[] = ['strict', 'early', 'disabled'];
const percent = getStructDecoder([['percent', getU8Decoder()]]);
const voteThreshold = getDiscriminatedUnionDecoder(
  [
    ['yes-vote-percentage', percent],
    ['quorum-percentage', percent],
    ['disabled', getUnitDecoder()],
  ],
  { discriminator: 'type' },
);

const governanceDecoder = getStructDecoder([
  ['accountType', getU8Decoder()],
  ['realm', getAddressDecoder()],
  ['governedAccount', getAddressDecoder()],
  ['proposalsCount', getU32Decoder()],
  ['communityVoteThreshold', voteThreshold],
  ['minCommunityWeightToCreateProposal', getU64Decoder()],
  ['minTransactionHoldUpSeconds', getU32Decoder()],
  ['votingSeconds', getU32Decoder()],
  ['communityVoteTipping', getU8Decoder()],
  ['councilVoteThreshold', voteThreshold],
  ['councilVetoVoteThreshold', voteThreshold],
  ['minCouncilWeightToCreateProposal', getU64Decoder()],
  ['councilVoteTipping', getU8Decoder()],
]);

const tipping = (value: number): VoteTipping => {
  const named = TIPPING[value];
  if (named === undefined) throw new Error(`vote tipping ${value}`);
  return named;
};

export function decodeGovernance(data: Uint8Array): DecodeResult<Governance> {
  if (data.length < 1) return notDecoded('truncated', 'empty account');
  const type = GOVERNANCE_TYPES[data[0]!];
  if (type === undefined) return notDecoded('wrong-kind', `account type ${data[0]} is not a governance`);
  return tryDecode(() => {
    const raw = governanceDecoder.decode(data);
    const community = raw.communityVoteThreshold;
    const communityTipping = tipping(raw.communityVoteTipping);
    // A V1 layout's zero proposal_cool_off_time reads as YesVotePercentage(0) twice; the program
    // then applies the community rules to the council (governance.rs get_governance_data).
    const legacy =
      raw.councilVoteThreshold.type === 'yes-vote-percentage' && raw.councilVoteThreshold.percent === 0;
    const config: GovernanceConfig = {
      communityVoteThreshold: threshold(community),
      minCommunityWeightToCreateProposal: raw.minCommunityWeightToCreateProposal,
      minTransactionHoldUpSeconds: raw.minTransactionHoldUpSeconds,
      votingSeconds: raw.votingSeconds,
      communityVoteTipping: communityTipping,
      councilVoteThreshold: threshold(legacy ? community : raw.councilVoteThreshold),
      councilVetoVoteThreshold: threshold(legacy ? community : raw.councilVetoVoteThreshold),
      minCouncilWeightToCreateProposal: raw.minCouncilWeightToCreateProposal,
      councilVoteTipping: legacy ? communityTipping : tipping(raw.councilVoteTipping),
    };
    return {
      ...type,
      realm: raw.realm,
      governedAccount: raw.governedAccount,
      proposalsCount: raw.proposalsCount,
      config,
    };
  }, 'spl governance');
}

function threshold(raw: { type: VoteThreshold['type']; percent?: number }): VoteThreshold {
  return raw.type === 'disabled' ? { type: 'disabled' } : { type: raw.type, percent: raw.percent ?? 0 };
}

export interface Realm {
  readonly communityMint: Address;
  readonly councilMint: Address | null;
  /** Who may change the realm's config and create governances; null once handed to the DAO itself. */
  readonly authority: Address | null;
  readonly name: string;
}

const realmDecoder = getStructDecoder([
  ['accountType', getU8Decoder()],
  ['communityMint', getAddressDecoder()],
  ['legacy', fixDecoderSize(getBytesDecoder(), 8)],
  ['minCommunityWeightToCreateGovernance', getU64Decoder()],
  ['maxVoterWeightSourceType', getU8Decoder()],
  ['maxVoterWeightSourceValue', getU64Decoder()],
  ['councilMint', getOptionDecoder(getAddressDecoder())],
  ['reserved', fixDecoderSize(getBytesDecoder(), 6)],
  ['legacyVotingProposalCount', getU16Decoder()],
  ['authority', getOptionDecoder(getAddressDecoder())],
  ['name', addDecoderSizePrefix(getUtf8Decoder(), getU32Decoder())],
]);

export function decodeRealm(data: Uint8Array): DecodeResult<Realm> {
  if (data.length < 1) return notDecoded('truncated', 'empty account');
  if (!REALM_TYPES.has(data[0]!)) return notDecoded('wrong-kind', `account type ${data[0]} is not a realm`);
  return tryDecode(() => {
    const raw = realmDecoder.decode(data);
    return {
      communityMint: raw.communityMint,
      councilMint: unwrapOption(raw.councilMint),
      authority: unwrapOption(raw.authority),
      name: raw.name,
    };
  }, 'spl governance realm');
}

const PREFIX: Readonly<Record<GovernanceKind, string>> = {
  account: 'account-governance',
  program: 'program-governance',
  mint: 'mint-governance',
  token: 'token-governance',
};

/** The PDA a governance account must sit at, from its own kind, realm and governed account. */
export async function governanceAddressOf(governance: Governance, program: Address): Promise<Address> {
  const encoder = getAddressEncoder();
  const [pda] = await findProgramDerivedAddress({
    programAddress: program,
    seeds: [
      PREFIX[governance.kind],
      encoder.encode(governance.realm),
      encoder.encode(governance.governedAccount),
    ],
  });
  return pda;
}

/** The governance's native treasury ["native-treasury", governance]: the DAO wallet in the Realms UI. */
export async function findNativeTreasuryAddress(governance: Address, program: Address): Promise<Address> {
  const [pda] = await findProgramDerivedAddress({
    programAddress: program,
    seeds: ['native-treasury', getAddressEncoder().encode(governance)],
  });
  return pda;
}
