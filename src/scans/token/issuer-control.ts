/**
 * Words for a token whose powers are held by someone a caller can name and weigh: a trusted
 * issuer (Paxos for PYUSD) or a recognised multisig or governance. Control is still risk and the
 * score does not change; the summary and recommendation say what the control is, who holds it
 * and what it means for a holder, instead of the generic "avoid". Pure.
 */
import { type Bucket, bucketOf, combineRisk, contribution } from '../risk/combine.js';
import type { FlagHit } from '../risk/model.js';
import { BUCKET_WORDS, type Verdict, type Wording } from '../risk/result.js';
import type { TrustedIssuer } from '../token-facts/trusted.js';
import type { TokenFlag } from './flags.js';

/**
 * Who holds a mint's powers. A trusted issuer holds every power of its own mint. A governance
 * holder (a multisig or DAO recognised by the caller, e.g. a Squads vault) holds only the powers
 * whose authority is one of `authorities`; any other power keeps the generic warning.
 */
export type ControlHolder =
  | { readonly kind: 'trusted-issuer'; readonly issuer: TrustedIssuer }
  | {
      readonly kind: 'governance';
      /** What it is, in a few words: "a 3-of-5 Squads v4 multisig 7ZyD…k8Sf". */
      readonly name: string;
      /** Who must act together to use the powers: "members" (a multisig), "voters" (a DAO). */
      readonly voters?: string;
      /** The addresses it controls (the vault or governance PDA that is the authority). */
      readonly authorities: readonly string[];
    };

interface Control {
  /** The power's name: "freeze authority". */
  readonly name: string;
  /** What its holder can do with it: "freeze any holder's balance". */
  readonly power: string;
  /** The evidence key naming the authority; null when the power has no authority of its own. */
  readonly authorityKey: string | null;
}

/** The token flags that are a power over holders, and what each lets its holder do. */
export const ISSUER_CONTROLS: Readonly<Partial<Record<TokenFlag, Control>>> = {
  PERMANENT_DELEGATE: {
    name: 'permanent delegate',
    power: "move or burn any holder's tokens (seize balances)",
    authorityKey: 'permanent_delegate',
  },
  MINT_AUTHORITY_ACTIVE: {
    name: 'mint authority',
    power: 'mint more tokens',
    authorityKey: 'mint_authority',
  },
  FREEZE_AUTHORITY_ACTIVE: {
    name: 'freeze authority',
    power: "freeze any holder's balance",
    authorityKey: 'freeze_authority',
  },
  PAUSABLE: { name: 'pause authority', power: 'pause all transfers', authorityKey: 'pause_authority' },
  DEFAULT_STATE_FROZEN: {
    name: 'default-frozen accounts',
    power: 'keep new accounts frozen until it approves them',
    authorityKey: null,
  },
  TRANSFER_HOOK_ACTIVE: {
    name: 'transfer hook',
    power: 'run its own program on every transfer',
    authorityKey: null,
  },
  TRANSFER_HOOK_AUTHORITY: {
    name: 'transfer-hook authority',
    power: 'set a transfer hook',
    authorityKey: 'transfer_hook_authority',
  },
  TRANSFER_FEE_AUTHORITY: {
    name: 'transfer-fee authority',
    power: 'change the transfer fee',
    authorityKey: 'fee_config_authority',
  },
  PERMISSIONED_BURN: {
    name: 'burn approval',
    power: 'approve or refuse burns',
    authorityKey: 'burn_authority',
  },
  UI_AMOUNT_AUTHORITY: {
    name: 'display-amount authority',
    power: 'change how balances are displayed',
    authorityKey: 'authority',
  },
  MINT_CLOSE_AUTHORITY: {
    name: 'close authority',
    power: 'close the mint once no tokens exist',
    authorityKey: 'close_authority',
  },
  METADATA_MUTABLE: {
    name: 'metadata update authority',
    power: 'rename the token',
    authorityKey: 'update_authority',
  },
};

const controlOf = (hit: FlagHit): Control | undefined => ISSUER_CONTROLS[hit.code as TokenFlag];

function holds(holder: ControlHolder, hit: FlagHit): boolean {
  const control = controlOf(hit);
  if (control === undefined) return false;
  if (holder.kind === 'trusted-issuer') return true;
  const authority = control.authorityKey === null ? undefined : hit.evidence[control.authorityKey];
  return typeof authority === 'string' && holder.authorities.includes(authority);
}

/** "a", "a and b", "a, b and c". */
function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "its issuer Paxos" in the summary; "Paxos, the issuer of PYUSD," in the recommendation. */
function holderNames(holder: ControlHolder): { short: string; full: string } {
  if (holder.kind === 'governance') return { short: holder.name, full: holder.name };
  const { issuer, asset } = holder.issuer;
  return { short: `its issuer ${issuer}`, full: `${issuer}, the issuer of ${asset},` };
}

/** What holding a token under this control means, and when to hold it, by kind of holder. */
function exposure(holder: ControlHolder): { means: string; hold: string } {
  if (holder.kind === 'governance')
    return {
      means: `. No single key can use these powers, but its ${holder.voters ?? 'members'} acting together can: your exposure is to that group`,
      hold: 'hold the token only if you trust it',
    };
  const { issuer, asset, kind } = holder.issuer;
  const hold = `hold ${asset} if you accept ${issuer} as your counterparty`;
  switch (kind) {
    case 'regulated-stablecoin':
      return {
        means: `, as regulated stablecoins do. Your exposure is to ${issuer}, not to an anonymous key`,
        hold,
      };
    case 'liquid-staking':
      return {
        means: `, as a liquid-staking pool does to mint against deposited SOL. Your exposure is to ${issuer}'s stake pool and whoever can upgrade it`,
        hold,
      };
    case 'wrapped-sol':
      return { means: `. Your exposure is to ${issuer}`, hold };
  }
}

/**
 * The wording for an Assessment (see result.ts): null when the holder holds none of the raised
 * powers. Other risks (holders, age, a paused token) keep their own weight: when they alone
 * would call for avoiding the token, the recommendation says that first.
 */
export function issuerControlWording(
  holder: ControlHolder,
  advice: Readonly<Record<Bucket, string>>,
): (verdict: Verdict) => Wording | null {
  return ({ subject, risk, ordered, catalog }) => {
    const controls = ordered.filter((h) => holds(holder, h) && contribution(h, catalog) > 0);
    if (controls.length === 0) return null;
    const others = ordered.filter((h) => !controls.includes(h));
    const otherBucket = bucketOf(combineRisk(others, catalog));
    const drivers = others.filter((h) => contribution(h, catalog) > 0);
    const names = controls.map((h) => controlOf(h)!.name);
    const shown = names.length > 3 ? [...names.slice(0, 3), `${names.length - 3} more`] : names;
    const who = holderNames(holder);
    const powers = `the powers ${who.short} holds over it: the ${list(shown)}`;
    const level = BUCKET_WORDS[bucketOf(risk)];
    const summary =
      otherBucket === 'proceed'
        ? `${subject}: ${level}, from ${powers}.`
        : `${subject}: ${level}, driven by ${list(drivers.slice(0, 2).map((h) => h.code))}${drivers.length > 2 ? ` and ${drivers.length - 2} more` : ''}, beside ${powers}.`;
    const can = [...new Set(controls.map((h) => controlOf(h)!.power))];
    const { means, hold } = exposure(holder);
    const meaning = `${who.full} holds its ${list(names)}: it can ${list(can)}${means}`;
    const recommendation =
      otherBucket === 'proceed'
        ? `${capitalise(meaning)}: ${hold}.`
        : otherBucket === 'caution'
          ? `${capitalise(meaning)}: ${hold}. Also watch: ${drivers
              .slice(0, 2)
              .map((h) => h.reason)
              .join('; ')}.`
          : `${advice[otherBucket]} Beside that, ${meaning}.`;
    return { summary, recommendation };
  };
}
