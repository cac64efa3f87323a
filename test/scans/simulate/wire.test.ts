/**
 * The body check of POST /simulate/tx (before any payment): what is a transaction and what is
 * not, and that a payment is named by the transaction's bytes, not by how the JSON is written.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  generateKeyPairSigner,
  getBase64Encoder,
  getCompiledTransactionMessageEncoder,
  getTransactionEncoder,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { reason } from '../../../src/reasons.js';
import { unsignedWireTransaction } from '../../../src/sandbox/unsigned.js';
import { checkSimulateBody } from '../../../src/scans/simulate/wire.js';
import { signedWire } from '../../helpers/wire-transactions.js';

const body = (transaction: string) => JSON.stringify({ transaction });

describe('checkSimulateBody', () => {
  it('takes legacy and v0, signed and unsigned; the digest is of the bytes, whatever the JSON spacing', async () => {
    const payer = await generateKeyPairSigner();
    const recipient = (await generateKeyPairSigner()).address;
    const ix = getTransferSolInstruction({ source: payer, destination: recipient, amount: 1n });
    const unsigned = unsignedWireTransaction(payer.address, [ix]);
    const v0 = unsignedWireTransaction(payer.address, [ix], { version: 0 });
    const signed = await signedWire(payer, [ix]);
    for (const tx of [unsigned, v0, signed]) {
      const checked = checkSimulateBody(body(tx));
      assert.ok(checked.ok, checked.ok ? '' : checked.reason.text);
      assert.equal(checked.transaction.base64, tx);
      assert.match(checked.transaction.sha256, /^[0-9a-f]{64}$/);
    }
    const spaced = checkSimulateBody(`{ "transaction" :\n "${unsigned}" }`);
    const plain = checkSimulateBody(body(unsigned));
    assert.ok(spaced.ok && plain.ok);
    assert.equal(spaced.transaction.sha256, plain.transaction.sha256);
    const other = checkSimulateBody(body(v0));
    assert.ok(other.ok);
    assert.notEqual(other.transaction.sha256, plain.transaction.sha256);
  });

  it('refuses bytes after the message, a missing signature slot and a message without instructions', async () => {
    const payer = await generateKeyPairSigner();
    const ix = getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n });
    const wire = new Uint8Array(getBase64Encoder().encode(unsignedWireTransaction(payer.address, [ix])));
    const trailing = Buffer.concat([wire, Buffer.from([0])]).toString('base64');
    assert.deepEqual(checkSimulateBody(body(trailing)), {
      ok: false,
      reason: reason('transaction_malformed', {
        field: 'transaction',
        problem: 'it has bytes after the end of its message',
      }),
    });
    const noSlot = Buffer.concat([Buffer.from([0]), wire.subarray(65)]).toString('base64');
    const missing = checkSimulateBody(body(noSlot));
    assert.ok(
      !missing.ok && /to have 1 signatures, got 0/.test(missing.reason.text),
      JSON.stringify(missing),
    );
    assert.equal(!missing.ok && missing.reason.code, 'transaction_malformed');
    const empty = unsignedWireTransaction(payer.address, []);
    const none = checkSimulateBody(body(empty));
    assert.ok(!none.ok && /no instructions/.test(none.reason.text));
  });

  it('refuses a transaction naming more accounts than an instruction can index (lookups included)', async () => {
    const payer = await generateKeyPairSigner();
    const table = (await generateKeyPairSigner()).address;
    const indexes = (n: number) => Array.from({ length: n }, (_, i) => i % 256);
    const messageBytes = getCompiledTransactionMessageEncoder().encode({
      version: 0,
      header: { numSignerAccounts: 1, numReadonlySignerAccounts: 0, numReadonlyNonSignerAccounts: 0 },
      staticAccounts: [payer.address],
      lifetimeToken: '11111111111111111111111111111111',
      instructions: [{ programAddressIndex: 0 }],
      addressTableLookups: [
        { lookupTableAddress: table, writableIndexes: indexes(150), readonlyIndexes: indexes(150) },
      ],
    } as never);
    const wire = getTransactionEncoder().encode({
      messageBytes,
      signatures: { [payer.address]: null },
    } as never);
    assert.deepEqual(checkSimulateBody(body(Buffer.from(wire).toString('base64'))), {
      ok: false,
      reason: reason('transaction_malformed', {
        field: 'transaction',
        problem: 'it names 301 accounts; a transaction can name at most 256',
      }),
    });
  });
});
