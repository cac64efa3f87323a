/**
 * SPL Token mints whose mint and freeze authority a recognised multisig or DAO holds, built on
 * the real governing accounts among the mainnet dumps (fixtures/mainnet/PROVENANCE.md), with a
 * single-key twin and a forged governance to tell them apart:
 *  - token:governed:coral — authorities handed to 551FBX…, the signer of Marinade's real Coral
 *    multisig magrsH… (6 of 13): /scan/token names the multisig in its recommendation;
 *  - token:governed:realms — authorities handed to HVx4oW…, Pyth's real SPL Governance account
 *    in the "Pyth Governance" realm: the recommendation names the DAO and its voting rules;
 *  - token:governed:single-key — the same holders and metadata, authorities kept by one key: the
 *    same flags and score as the two above, with the generic wording;
 *  - token:governed:forged — authorities handed to an address holding a copy of Pyth's governance
 *    bytes (owned by the governance program, but not at the PDA its contents derive): the
 *    generic strong warning, no DAO named.
 */
import { type Address, address, getProgramDerivedAddress } from '@solana/kit';
import { PYTH_GOVERNANCE_PROGRAM } from '../../solana/programs.js';
import type { ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import { type SplTokenSpec, seedSplToken } from './tokens.js';

const CORAL_SIGNER = address('551FBXSXdhcRDDkdcb3ThDRg84Mwe5Zs6YjJ1EEoyzBp');
const CORAL_MULTISIG = address('magrsHFQxkkioAy45VWnZnFBBdKVdy2ZiRoRGYT9Wed');
const PYTH_GOVERNANCE = address('HVx4oW785bu8QDQ8AwSVfD7H4iuH51ttakc2G5f9XTX8');
const PYTH_REALM = address('4ct8XU5tKbMNRphWy4rePsS9kBqPhDdvZoGpmprPaug4');

/** Flags every governed mint and its single-key twin raise: only the wording differs. */
const FLAGS = 'MINT_AUTHORITY_ACTIVE and FREEZE_AUTHORITY_ACTIVE';

const base = {
  // token:clean's spread (40 holders, the largest 4 %): no holder flag, the authorities stand alone.
  allocations: Array.from({ length: 40 }, (_, i) => 40_000n - 750n * BigInt(i)),
  revoke: false,
  metadata: { name: 'Sandbox Governed', symbol: 'GOV', isMutable: false },
} as const;

/** An off-curve address for the forged governance (a PDA nobody signs for). */
async function forgedAddress(): Promise<Address> {
  const [pda] = await getProgramDerivedAddress({
    programAddress: PYTH_GOVERNANCE_PROGRAM,
    seeds: ['sandbox-forged-governance'],
  });
  return pda;
}

/** Seeds the governed mints whose governing accounts were loaded from the dumps. */
export async function seedGovernedTokens(context: ScenarioContext): Promise<BuiltSubject[]> {
  const { chain } = context;
  const specs: SplTokenSpec[] = [
    {
      ...base,
      name: 'token:governed:single-key',
      label: 'token:governed:single-key',
      description: `SPL Token mint whose creator key keeps the mint and freeze authority; raises ${FLAGS} with the generic wording, the same score as token:governed:coral and token:governed:realms`,
    },
  ];
  if (chain.getAccount(CORAL_MULTISIG) !== null) {
    specs.push({
      ...base,
      name: 'token:governed:coral',
      label: 'token:governed:coral',
      handOverTo: CORAL_SIGNER,
      governor: { kind: 'coral-multisig', address: CORAL_MULTISIG, authority: CORAL_SIGNER, verified: true },
      description: `SPL Token mint whose mint and freeze authority is 551FBX…, the signer of Marinade's real Coral multisig magrsH… (6 of 13 owners); raises ${FLAGS}, and the recommendation names the 6-of-13 Coral multisig instead of "avoid"`,
    });
  }
  const governance = chain.getAccount(PYTH_GOVERNANCE);
  if (governance !== null && chain.getAccount(PYTH_REALM) !== null) {
    specs.push({
      ...base,
      name: 'token:governed:realms',
      label: 'token:governed:realms',
      handOverTo: PYTH_GOVERNANCE,
      governor: {
        kind: 'spl-governance',
        address: PYTH_GOVERNANCE,
        authority: PYTH_GOVERNANCE,
        verified: true,
      },
      description: `SPL Token mint whose mint and freeze authority is HVx4oW…, Pyth's real SPL Governance account (realm "Pyth Governance", 67 % yes votes, 7 days of voting); raises ${FLAGS}, and the recommendation names the DAO and its rules`,
    });
    const forged = await forgedAddress();
    chain.setAccount({
      address: forged,
      lamports: governance.lamports(),
      data: governance.data(),
      owner: PYTH_GOVERNANCE_PROGRAM,
    });
    specs.push({
      ...base,
      name: 'token:governed:forged',
      label: 'token:governed:forged',
      handOverTo: forged,
      governor: { kind: 'spl-governance', address: forged, authority: forged, verified: false },
      description: `SPL Token mint whose mint and freeze authority holds a forged copy of Pyth's governance bytes (owned by the governance program, but its contents derive HVx4oW…, not this address); raises ${FLAGS} with the generic strong warning: no DAO is named`,
    });
  }
  const built: BuiltSubject[] = [];
  for (const spec of specs) built.push(await seedSplToken(context, spec));
  return built;
}
