/**
 * The watch scenarios: subjects whose verdict a real transaction can change, each with the actor
 * who can send it (an authority or creator, its key in the manifest) and what the scan says before
 * and after (src/sandbox/actors sends them). Also the one subject seeded for them alone: a fresh
 * pump.fun coin whose creator still holds its dev buy, made minutes before the chain's "now" so a
 * sale is still a dump (within 30 minutes of the creation).
 */
import { getBase58Decoder } from '@solana/kit';
import { privateKeyBytes } from './builders/keys.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { BuiltSubject, FlagOf } from './expectations.js';
import type { FlagExpect, ScenarioAction, ScenarioActor, ScenarioKind } from './manifest.js';
import { launchPumpCoin, PUMP_TOTAL_SUPPLY } from './pumpfun.js';

const DEV_HOLDING_LABEL = 'watch:dev-holding';

/** A code of some scan's catalog: a misspelt one does not compile. */
type Code = FlagOf<ScenarioKind>;

interface ActionSpec extends Omit<ScenarioAction, 'actor' | 'change'> {
  subject: string;
  change: { flagsAdded: Code[]; flagsRemoved: Code[] };
  role: ScenarioActor['role'];
  /** The actor's key in the scenarios' key ring. */
  keyLabel: string;
}

const flags = (raised: Code[], notRaised: Code[]): FlagExpect => ({ flags: raised, notFlags: notRaised });

const SPECS: readonly ActionSpec[] = [
  {
    subject: 'token:authorities-live',
    name: 'mint',
    role: 'mint-authority',
    keyLabel: 'token:authorities-live:authority',
    description:
      'The mint authority mints as much again as the supply to its own token account (MintToChecked): the authority then holds half the supply',
    before: flags(['MINT_AUTHORITY_ACTIVE'], ['AUTHORITY_HOLDS_SUPPLY']),
    after: flags(['MINT_AUTHORITY_ACTIVE', 'AUTHORITY_HOLDS_SUPPLY'], []),
    change: { flagsAdded: ['AUTHORITY_HOLDS_SUPPLY'], flagsRemoved: [] },
  },
  {
    subject: 'token:authorities-live',
    name: 'freeze',
    role: 'freeze-authority',
    keyLabel: 'token:authorities-live:authority',
    description: "The freeze authority freezes the largest holder's token account (FreezeAccount)",
    before: flags(['FREEZE_AUTHORITY_ACTIVE'], ['FROZEN_HOLDERS']),
    after: flags(['FREEZE_AUTHORITY_ACTIVE', 'FROZEN_HOLDERS'], []),
    change: { flagsAdded: ['FROZEN_HOLDERS'], flagsRemoved: [] },
  },
  {
    subject: 'program:single-key',
    name: 'upgrade',
    role: 'upgrade-authority',
    keyLabel: 'program:single-key:authority',
    description:
      'The upgrade authority writes a new build into a buffer and upgrades the program (BPF Upgradeable Loader Write, Upgrade): its third upgrade in 30 days',
    before: flags(['UPGRADE_AUTHORITY_SINGLE_KEY', 'RECENTLY_UPGRADED'], ['FREQUENT_UPGRADES']),
    after: flags(['UPGRADE_AUTHORITY_SINGLE_KEY', 'RECENTLY_UPGRADED', 'FREQUENT_UPGRADES'], []),
    change: { flagsAdded: ['FREQUENT_UPGRADES'], flagsRemoved: [] },
  },
  {
    subject: 'pumpfun:dev-holding',
    name: 'sell-dev-buy',
    role: 'creator',
    keyLabel: `${DEV_HOLDING_LABEL}:creator`,
    description:
      'The creator sends its whole dev buy back to the curve (TransferChecked, what a pump.fun sell leaves in token balances) within 30 minutes of the creation',
    before: flags(['CREATOR_HOLDS_SUPPLY'], ['CREATOR_DEV_DUMP']),
    after: flags(['CREATOR_DEV_DUMP'], ['CREATOR_HOLDS_SUPPLY']),
    change: { flagsAdded: ['CREATOR_DEV_DUMP'], flagsRemoved: ['CREATOR_HOLDS_SUPPLY'] },
  },
  {
    subject: 'token:pool-lp-creator',
    name: 'burn-lp',
    role: 'lp-holder',
    keyLabel: 'token:pool-lp-creator:creator',
    description:
      'The creator burns every LP token of its Raydium CPMM pool (SPL Burn): the liquidity can no longer be pulled',
    before: flags(['LP_PULLABLE'], ['LP_BURNED_OR_LOCKED']),
    after: flags(['LP_BURNED_OR_LOCKED'], ['LP_PULLABLE']),
    change: { flagsAdded: ['LP_BURNED_OR_LOCKED'], flagsRemoved: ['LP_PULLABLE'] },
  },
  {
    subject: 'token:pool-lp-creator',
    name: 'withdraw-lp',
    role: 'lp-holder',
    keyLabel: 'token:pool-lp-creator:creator',
    description:
      "The creator pulls the liquidity of its Raydium CPMM pool: it burns every LP token (SPL Burn, memo raydium-cpmm:withdraw) and the pool's reserves go to its wallet (paid by the sandbox's stand-in for the CPMM program, which it does not run); the pool keeps the dust of the 100 LP units CPMM never mints, and the creator now holds half the supply",
    before: flags(['LP_PULLABLE'], ['LIQUIDITY_THIN', 'HOLDER_TOP1_HIGH', 'LP_BURNED_OR_LOCKED']),
    // The pool's dust cannot take a $1,000 trade: both trade-size flags come with the rug.
    after: flags(
      [
        'LIQUIDITY_THIN',
        'HOLDER_TOP1_HIGH',
        'HOLDER_TOP10_HIGH',
        'LP_BURNED_OR_LOCKED',
        'TRADE_PRICE_IMPACT_HIGH',
        'TRADE_ROUND_TRIP_LOSS_HIGH',
      ],
      ['LP_PULLABLE'],
    ),
    change: {
      flagsAdded: [
        'HOLDER_TOP10_HIGH',
        'HOLDER_TOP1_HIGH',
        'LIQUIDITY_THIN',
        'LP_BURNED_OR_LOCKED',
        'TRADE_PRICE_IMPACT_HIGH',
        'TRADE_ROUND_TRIP_LOSS_HIGH',
      ],
      flagsRemoved: ['LP_PULLABLE'],
    },
  },
];

/** A fresh coin, 5 % dev buy kept by its creator, four buyers: a few minutes before the end. */
export async function seedDevHolding(context: ScenarioContext): Promise<BuiltSubject> {
  const creator = await fundedSigner(context, `${DEV_HOLDING_LABEL}:creator`, 50n * LAMPORTS_PER_SOL);
  const launch = await launchPumpCoin(context, {
    label: DEV_HOLDING_LABEL,
    creator,
    name: 'Dev Holding',
    symbol: 'HOLD',
    sold: (15n * PUMP_TOTAL_SUPPLY) / 100n,
    graduated: false,
    devBuy: (5n * PUMP_TOTAL_SUPPLY) / 100n,
    buyers: 4,
  });
  return {
    name: 'pumpfun:dev-holding',
    kind: 'pumpfun',
    address: launch.mint,
    description:
      'A coin created minutes ago whose creator still holds its 5 % dev buy; its creator can sell it (action sell-dev-buy)',
    expect: launch.expect,
  };
}

/** Lists each action on its subject, with the actor's address and key. */
export async function attachActions(context: ScenarioContext): Promise<void> {
  for (const { subject: name, role, keyLabel, ...action } of SPECS) {
    const subject = context.subjects.find((s) => s.name === name);
    if (subject === undefined || subject.name.startsWith('mainnet:')) {
      throw new Error(`no subject ${name} to attach the ${action.name} action to`);
    }
    const actor: ScenarioActor = {
      role,
      address: (await context.keys.signer(keyLabel)).address,
      privateKey: getBase58Decoder().decode(privateKeyBytes(context.keys.seed, keyLabel)),
    };
    const entry = subject as { actions?: ScenarioAction[] };
    entry.actions = [...(entry.actions ?? []), { ...action, actor }];
  }
}
