/**
 * /verify/tx against the seeded sandbox (real transactions through the real RPC) and against
 * recorded mainnet getTransaction answers: fees, signer balance changes, failures and drainer
 * shapes exactly as the chain recorded them, in one round trip.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { verifyTransaction } from '../../../src/scans/tx/index.js';
import { countingTransport, replayTransport } from '../../helpers/rpc-transports.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';
import { readFixtureJson } from '../../solana/fixtures.js';

describe('verifyTransaction on the seeded sandbox', () => {
  const sandbox = useSeededSandbox();

  const scan = async (signature: string) => {
    const counter = countingTransport(createDefaultRpcTransport({ url: sandbox.server.url }));
    const outcome = await verifyTransaction(signature, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return { ...outcome, roundTrips: counter.roundTrips(), calls: counter.calls };
  };

  it('a plain transfer: success, exact fee and signer change, one round trip, low risk', async () => {
    const s = subject(sandbox.manifest, 'tx', 'tx:success');
    const { result, roundTrips, calls } = await scan(s.signature);
    assert.equal(roundTrips, 1);
    assert.deepEqual(calls.sort(), ['getSignatureStatuses', 'getTransaction']);
    const e = result.evidence as any;
    assert.equal(e.success, true);
    assert.equal(e.fee.total, s.expect.fee);
    assert.equal(e.signers[0].pre_lamports, s.expect.signerPreLamports);
    assert.equal(e.signers[0].post_lamports, s.expect.signerPostLamports);
    assert.equal(
      BigInt(e.signers[0].change_excluding_fee),
      BigInt(s.expect.signerPostLamports) - BigInt(s.expect.signerPreLamports) + BigInt(s.expect.fee),
    );
    assert.ok(!result.flags.includes('TX_FAILED'));
    assert.ok(result.risk_score < 0.2, `risk ${result.risk_score}`);
  });

  it('a failed transfer: TX_FAILED with the instruction and custom code decoded', async () => {
    const s = subject(sandbox.manifest, 'tx', 'tx:failed-custom-error');
    const { result } = await scan(s.signature);
    assert.ok(result.flags.includes('TX_FAILED'));
    const flag = (result.evidence as any).flags.TX_FAILED;
    assert.equal(flag.custom_code, s.expect.customErrorCode);
    assert.equal(typeof flag.failed_instruction, 'number');
    assert.equal((result.evidence as any).fee.total, s.expect.fee, 'the fee was still charged');
  });

  it('a high priority fee is split into base and priority exactly', async () => {
    const s = subject(sandbox.manifest, 'tx', 'tx:high-priority-fee');
    const { result } = await scan(s.signature);
    const e = result.evidence as any;
    assert.equal(e.fee.priority, s.expect.priorityFeeLamports);
    assert.equal(BigInt(e.fee.base) + BigInt(e.fee.priority), BigInt(s.expect.fee));
    assert.equal(e.compute_units.price_micro_lamports, s.expect.computeUnitPrice);
  });

  it('a large signer outflow is flagged with the signer balances', async () => {
    const s = subject(sandbox.manifest, 'tx', 'tx:large-outflow');
    const { result } = await scan(s.signature);
    assert.ok(result.flags.includes('TX_SIGNER_LARGE_SOL_OUTFLOW'));
    assert.equal(
      (result.evidence as any).flags.TX_SIGNER_LARGE_SOL_OUTFLOW.pre_lamports,
      s.expect.signerPreLamports,
    );
  });

  it('the drainer shape: approve to a third party and an owner change, scored at least 0.85', async () => {
    const s = subject(sandbox.manifest, 'tx', 'tx:drainer');
    const { result } = await scan(s.signature);
    assert.ok(result.flags.includes('TX_TOKEN_APPROVE_THIRD_PARTY'));
    assert.ok(result.flags.includes('TX_TOKEN_ACCOUNT_OWNER_CHANGED'));
    const e = (result.evidence as any).flags;
    assert.equal(e.TX_TOKEN_APPROVE_THIRD_PARTY.delegate, s.expect.approve?.delegate);
    assert.equal(e.TX_TOKEN_ACCOUNT_OWNER_CHANGED.new_owner, s.expect.setAuthority?.newAuthority);
    assert.ok(result.risk_score >= 0.85);
    assert.equal(result.recommendation.includes('compromised'), true);
  });

  it('an unknown signature is an answer: TX_NOT_FOUND, lower confidence', async () => {
    const { result } = await scan(
      '5bvyp1nob51M6FCjCeZd68AjXFWJJEvdqkHu9ZCeRt6sMz5wpUiTi3LPBEuonUHuVg8LwzSnx5MX2RFGSv6Mb36v',
    );
    assert.deepEqual(result.flags, ['TX_NOT_FOUND']);
    assert.ok(result.confidence < 1);
  });

  it('ordering: success < failed < drainer', async () => {
    const risk = async (name: string) =>
      (await scan(subject(sandbox.manifest, 'tx', name).signature)).result.risk_score;
    const [ok, failed, drainer] = [
      await risk('tx:success'),
      await risk('tx:failed-custom-error'),
      await risk('tx:drainer'),
    ];
    assert.ok(ok < failed && failed < drainer, `${ok} < ${failed} < ${drainer}`);
  });
});

describe('verifyTransaction on recorded mainnet transactions', () => {
  const recorded = (file: string) => {
    const answer = readFixtureJson(`rpc/${file}`) as { result: any };
    const signature = answer.result.transaction[0] && file.match(/-([1-9A-HJ-NP-Za-km-z]{8})\.json$/)?.[1];
    return { answer: answer.result, prefix: signature };
  };

  async function scanRecorded(file: string) {
    const { answer } = recorded(file);
    const wire = Buffer.from(answer.transaction[0], 'base64');
    // The transaction's id is its first signature (after the 1-byte count).
    const { getBase58Decoder } = await import('@solana/kit');
    const signature = getBase58Decoder().decode(wire.subarray(1, 65));
    const status = {
      slot: answer.slot,
      confirmations: null,
      err: answer.meta.err,
      confirmationStatus: 'finalized',
    };
    const transport = replayTransport({
      [`getTransaction "${signature}"`]: answer,
      [`getSignatureStatuses ["${signature}"]`]: { context: { slot: answer.slot }, value: [status] },
    });
    return {
      answer,
      ...(await verifyTransaction(signature, {
        rpc: createSolanaRpcFromTransport(transport),
        now: Date.now,
      })),
    };
  }

  it('Jupiter USDC swap (v0 with lookup tables): fee and signer change exactly as recorded', async () => {
    const { answer, result, cacheTtlSeconds } = await scanRecorded(
      'getTransaction-jupiter-usdc-swap-494hTE5g.json',
    );
    const e = result.evidence as any;
    assert.equal(e.success, true);
    assert.equal(e.fee.total, String(answer.meta.fee));
    assert.equal(
      BigInt(e.signers[0].change),
      BigInt(answer.meta.postBalances[0]) - BigInt(answer.meta.preBalances[0]),
    );
    assert.equal(
      BigInt(e.signers[0].change_excluding_fee),
      BigInt(e.signers[0].change) + BigInt(answer.meta.fee),
    );
    assert.ok(e.token_changes.length > 0, 'token balance changes per owner and mint');
    assert.equal(cacheTtlSeconds, undefined, 'finalized: cached for the catalog TTL');
  });

  it('failed with custom error 30: instruction 2, code 30, fee charged', async () => {
    const { answer, result } = await scanRecorded('getTransaction-failed-custom-30-4E5G6Wgq.json');
    const flag = (result.evidence as any).flags.TX_FAILED;
    assert.equal(flag.failed_instruction, 2);
    assert.equal(flag.custom_code, 30);
    assert.equal((result.evidence as any).fee.total, String(answer.meta.fee));
    assert.equal(
      BigInt((result.evidence as any).signers[0].change),
      BigInt(answer.meta.postBalances[0]) - BigInt(answer.meta.preBalances[0]),
    );
  });

  it('failed IncorrectProgramId: the error is decoded, no custom code', async () => {
    const { result } = await scanRecorded('getTransaction-failed-ata-incorrect-program-id-58czvUb5.json');
    const flag = (result.evidence as any).flags.TX_FAILED;
    assert.equal(flag.failed_instruction, 0);
    assert.equal(flag.custom_code, null);
    assert.deepEqual(flag.err, { InstructionError: [0, 'IncorrectProgramId'] });
  });
});
