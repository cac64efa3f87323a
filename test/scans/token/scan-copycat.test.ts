/**
 * /scan/token on the seeded copycats (made with the real Token-2022 metadata instructions and the
 * real Token Metadata program): the chain holds the names the manifest lists, only the copies are
 * flagged, and a copy costs the round trips an ordinary token of its kind costs (the names were
 * already read with the mint: the rule adds no read).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Address, createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, subject } from '../../../src/sandbox/scenarios/index.js';
import { scanToken } from '../../../src/scans/token/index.js';
import { decodeMint } from '../../../src/solana/decoders/mint.js';
import { countingTransport } from '../../helpers/rpc-transports.js';
import { seededChain } from '../../helpers/seeded-chain.js';

const CODE = 'IMPERSONATES_VERIFIED_TOKEN';

describe('scanToken on the seeded copycats', () => {
  let chain: SandboxChain;
  let server: SandboxRpc;
  let manifest: ScenarioManifest;
  before(async () => {
    ({ chain, manifest } = await seededChain({ autoAdvance: false }));
    server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    chain.stop();
    await server.close();
  });

  const scan = async (name: string) => {
    const counter = countingTransport(createDefaultRpcTransport({ url: server.url }));
    const rpc = createSolanaRpcFromTransport(counter.transport);
    const { address } = subject(manifest, 'token', name);
    const { result } = await scanToken(address, { rpc, now: Date.now });
    return { result, roundTrips: counter.roundTrips(), rpc, address: address as Address };
  };

  for (const name of ['token:copycat-usdc', 'token:copycat-lookalike', 'token:copycat-decorated']) {
    it(`${name}: its own metadata extension holds the listed names, renounced; flagged in the rounds of an ordinary Token-2022 mint`, async () => {
      const { result, roundTrips, rpc, address } = await scan(name);
      const expect = subject(manifest, 'token', name).expect;
      const account = await rpc.getAccountInfo(address, { encoding: 'base64' }).send();
      const mint = decodeMint(Buffer.from(account.value!.data[0], 'base64'), account.value!.owner);
      assert.ok(mint.ok);
      const metadata = mint.value.extensions.tokenMetadata!;
      assert.deepEqual(
        { name: metadata.name, symbol: metadata.symbol, updateAuthority: metadata.updateAuthority },
        expect.tokenMetadata,
      );
      assert.ok(result.flags.includes(CODE), `${result.flags}`);
      const ordinary = await scan('token:t22-permanent-delegate');
      assert.equal(roundTrips, ordinary.roundTrips, 'no more round trips than an ordinary Token-2022 mint');
    });
  }

  it('the Metaplex copy of JUP is flagged in the rounds of an ordinary SPL Token mint', async () => {
    const copy = await scan('token:copycat-jup');
    assert.ok(copy.result.flags.includes(CODE), `${copy.result.flags}`);
    const ordinary = await scan('token:clean');
    assert.equal(copy.roundTrips, ordinary.roundTrips);
  });

  it('USDC itself and the listed variant are not flagged, and say they are listed', async () => {
    for (const name of ['token:usdc', 'token:verified-variant']) {
      const { result } = await scan(name);
      assert.ok(!result.flags.includes(CODE), `${name}: ${result.flags}`);
      assert.ok((result.evidence as any).verified_token, `${name} says it is on the registry`);
    }
  });
});
