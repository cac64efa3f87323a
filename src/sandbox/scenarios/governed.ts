/**
 * Programs governed through the real mainnet governing accounts among the dumps: Jupiter v6 under
 * its Squads v3 multisig (7ZyDFz…, authority 1 = CvQZZ2…) and Pyth's staking program under its
 * SPL Governance ProgramGovernance (HVx4oW…, realm "Pyth Governance"). The governing accounts are
 * real bytes (fixtures/mainnet/PROVENANCE.md); the programs are stand-ins at the real ids with the
 * upgrade authority those accounts hold on mainnet. Marinade needs no stand-in: its program,
 * ProgramData and Coral multisig are all real dumps.
 */
import { type Address, address } from '@solana/kit';
import { installStandInProgram } from './builders/layouts.js';
import type { ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import type { ProgramExpect } from './manifest.js';

interface Governed {
  readonly name: string;
  readonly programId: Address;
  readonly authority: Address;
  readonly governing: Address;
  readonly authorityKind: ProgramExpect['authorityKind'];
  readonly description: string;
}

const GOVERNED: readonly Governed[] = [
  {
    name: 'program:governed:squads-v3',
    programId: address('JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4'),
    authority: address('CvQZZ23qYDWF2RUpxYJ8y9K4skmuvYEEjH7fK58jtipQ'),
    governing: address('7ZyDFzet6sKgZLN4D89JLfo7chu2n7nYdkFt5RCFk8Sf'),
    authorityKind: 'squads-v3-multisig',
    description:
      "Jupiter v6 at its real id (stand-in code), upgrade authority = authority 1 of Jupiter's real Squads v3 multisig 7ZyDFz… (4 of 7)",
  },
  {
    name: 'program:governed:realms',
    programId: address('pytS9TjG1qyAZypk7n8rw8gfW9sUaqqYyMhJQ4E7JCQ'),
    authority: address('HVx4oW785bu8QDQ8AwSVfD7H4iuH51ttakc2G5f9XTX8'),
    governing: address('HVx4oW785bu8QDQ8AwSVfD7H4iuH51ttakc2G5f9XTX8'),
    authorityKind: 'spl-governance',
    description:
      'Pyth staking at its real id (stand-in code), upgrade authority = its real SPL Governance ProgramGovernance HVx4oW… in the "Pyth Governance" realm',
  },
];

/** Installs each governed program whose governing account was loaded from the dumps. */
export async function seedGovernedPrograms(context: ScenarioContext): Promise<BuiltSubject[]> {
  const built: BuiltSubject[] = [];
  for (const governed of GOVERNED) {
    if (context.chain.getAccount(governed.governing) === null) continue;
    const installed = await installStandInProgram(
      context.chain,
      governed.programId,
      context.programElf,
      governed.authority,
    );
    built.push({
      name: governed.name,
      kind: 'program',
      address: governed.programId,
      description: governed.description,
      expect: {
        programData: installed.programData,
        upgradeAuthority: governed.authority,
        authorityKind: governed.authorityKind,
        lastDeploySlot: installed.deploySlot.toString(),
        deployments: [],
        authorityChanges: [],
        executableLength: context.programElf.length,
        standIn: true,
        governor: governed.governing,
      },
    });
  }
  return built;
}
