/**
 * The governing accounts behind a mint's authorities (mint, freeze, permanent delegate, …): a
 * Squads v3/v4 or Coral multisig, or an SPL Governance (Realms) governance. I/O only; what they
 * mean for a holder is governance-holder.ts.
 *
 * Cost, on top of the token scan's two round trips:
 *  - authorities that are none or on-curve keys: nothing at all (no request);
 *  - any program-derived authority: one getMultipleAccounts in round two, in parallel with the
 *    holders' accounts (no extra round trip) — the authorities' accounts and, for an authority in
 *    the well-known list, its governing account;
 *  - an authority verified as an SPL Governance account: its realm (for the DAO's name), one
 *    getMultipleAccounts in a third round trip (`readRealms`).
 * Leads, never trusted until derived (src/solana/governance/governors.ts): the authority account
 * itself (a governance owned by a known deployment — a mint governance PDA), or the well-known
 * list. A Squads v4 vault is recognised the way the program scan checks one — the vault derives
 * from its multisig, which the Squads program owns — but only when a lead names that multisig:
 * the token scan reads no transactions, so there is no history to find it in.
 * No getProgramAccounts.
 */
import type { Address } from '@solana/kit';
import { isOnCurveAddress } from '../../solana/address-curve.js';
import type { DecodedMint } from '../../solana/decoders/mint.js';
import { decodeGovernance } from '../../solana/decoders/spl-governance.js';
import {
  derivedAuthority,
  governanceAuthority,
  wellKnownGovernor,
} from '../../solana/governance/governors.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { GovernorRead, MintView, TokenGovernor } from '../token-facts/model.js';

/** Distinct program-derived authorities read per mint: a mint has at most a dozen powers. */
const MAX_AUTHORITIES = 12;

/** Every authority the mint names (the powers issuer-control.ts words), program-derived ones only. */
export function derivedAuthoritiesOf({ mint, metaplex }: MintView): Address[] {
  if (mint === null) return [];
  // Metaplex metadata that is immutable has no update authority left.
  const all = [...authoritiesOf(mint), metaplex?.isMutable ? metaplex.updateAuthority : null];
  return [...new Set(all)]
    .filter((a): a is Address => a !== null && !isOnCurveAddress(a))
    .slice(0, MAX_AUTHORITIES);
}

function authoritiesOf(mint: DecodedMint): (Address | null)[] {
  const x = mint.extensions;
  return [
    mint.mintAuthority,
    mint.freezeAuthority,
    x.permanentDelegate,
    x.pausable?.authority ?? null,
    x.transferHook?.authority ?? null,
    x.transferFeeConfig?.configAuthority ?? null,
    x.mintCloseAuthority,
    x.permissionedBurn?.authority ?? null,
    x.scaledUiAmount?.authority ?? null,
    x.interestBearing?.rateAuthority ?? null,
    x.tokenMetadata?.updateAuthority ?? null,
  ];
}

type ReadMany = (addresses: readonly Address[]) => Promise<GovernorRead[]>;

function reader(rpc: SolanaRpc, abortSignal?: AbortSignal): ReadMany {
  const send = abortSignal ? { abortSignal } : {};
  return (addresses) =>
    rpc
      .getMultipleAccounts([...addresses], { encoding: 'base64' })
      .send(send)
      .then((r) =>
        addresses.map((_, i): GovernorRead => {
          const a = r.value[i] ?? null;
          return a === null
            ? null
            : { owner: a.owner, data: new Uint8Array(Buffer.from(a.data[0], 'base64')) };
        }),
      )
      .catch(() => addresses.map((): GovernorRead => 'unavailable'));
}

/**
 * Round two: the program-derived authorities' accounts and the well-known governing accounts
 * said to hold them, in one getMultipleAccounts (none when every authority is a key or none).
 */
export async function readGovernors(
  rpc: SolanaRpc,
  authorities: readonly Address[],
  abortSignal?: AbortSignal,
): Promise<TokenGovernor[]> {
  if (authorities.length === 0) return [];
  const known = authorities.map(wellKnownGovernor);
  const addresses = [...new Set([...authorities, ...known.flatMap((lead) => (lead ? [lead.address] : []))])];
  const accounts = await reader(rpc, abortSignal)(addresses);
  const at = (a: Address): GovernorRead => accounts[addresses.indexOf(a)] ?? null;
  const found = await Promise.all(
    authorities.map(async (authority, i): Promise<TokenGovernor | null> => {
      const own = at(authority);
      const lead = (own === 'unavailable' ? null : governanceAuthority(authority, own)) ?? known[i] ?? null;
      if (lead === null) return null;
      const account = lead.path.type === 'governance' ? own : at(lead.address);
      const usable = account === 'unavailable' ? null : account;
      return { authority, lead, account, derivedAuthority: await derivedAuthority(lead, usable) };
    }),
  );
  return found.filter((g): g is TokenGovernor => g !== null);
}

/**
 * Round three, only when an authority is a verified SPL Governance governance: the realms those
 * governances name, for the DAO's name (one getMultipleAccounts). Otherwise no request.
 */
export async function readRealms(
  rpc: SolanaRpc,
  governors: readonly TokenGovernor[],
  abortSignal?: AbortSignal,
): Promise<TokenGovernor[]> {
  const realmOf = governors.map((g) => {
    if (g.lead.kind !== 'spl-governance' || g.derivedAuthority !== g.authority) return null;
    if (g.account === null || g.account === 'unavailable') return null;
    const governance = decodeGovernance(g.account.data);
    return governance.ok ? governance.value.realm : null;
  });
  const realms = [...new Set(realmOf.filter((r): r is Address => r !== null))];
  if (realms.length === 0) return [...governors];
  const accounts = await reader(rpc, abortSignal)(realms);
  return governors.map((g, i) => {
    const realm = realmOf[i];
    return realm ? { ...g, realm: accounts[realms.indexOf(realm)] ?? null } : g;
  });
}
