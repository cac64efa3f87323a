/** The labelled CSV: what it accepts, and a one-line reason naming the line for what it does not. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointOf, LabelsError, parseLabels } from '../../src/evaluate/labels.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SIG = '5bvyp1nob51M6FCjCeZd68AjXFWJJEvdqkHu9ZCeRt6sMz5wpUiTi3LPBEuonUHuVg8LwzSnx5MX2RFGSv6Mb36v';

const fails = (text: string, reason: RegExp) =>
  assert.throws(
    () => parseLabels(text),
    (e: unknown) => e instanceof LabelsError && reason.test(e.message) && !e.message.includes('\n'),
  );

describe('parseLabels', () => {
  it('kind,address,label[,note] without a header; comments and blank lines skipped; quoted notes keep commas', () => {
    const subjects = parseLabels(
      `# a comment\n\ntoken,${USDC},Legit\ntx,${SIG},legit,"a swap, with ""quotes"""\r\n`,
    );
    assert.deepEqual(
      subjects.map((s) => [s.endpoint, s.address, s.label, s.note, s.line]),
      [
        ['token', USDC, 'legit', '', 3],
        ['tx', SIG, 'legit', 'a swap, with "quotes"', 4],
      ],
    );
  });

  it('a header may reorder the columns and add its own (kept as extra)', () => {
    const [s] = parseLabels(`label,kind,address,source\nrug,/scan/token,${USDC},SolRPDS 2022.csv\n`);
    assert.deepEqual(
      [s!.endpoint, s!.label, s!.note, s!.extra],
      ['token', 'rug', '', { source: 'SolRPDS 2022.csv' }],
    );
  });

  it('kind is an endpoint id, operationId or path', () => {
    assert.deepEqual(
      ['token', 'scanToken', '/scan/token', '/scan/token/{mint}', 'TX', '/verify/tx', 'wallet', 'nft'].map(
        endpointOf,
      ),
      ['token', 'token', 'token', 'token', 'tx', 'tx', 'wallet', null],
    );
  });

  it('malformed lists fail with one line naming the line at fault', () => {
    fails('', /no labelled subject/);
    fails('# only a comment\n', /no labelled subject/);
    fails(
      `nft,${USDC},legit`,
      /^line 1: kind "nft" is not an endpoint \(one of pumpfun, token, wallet, tx, program\)$/,
    );
    fails(`token,${USDC}`, /^line 1: 2 fields; expected 3 or 4/);
    fails(`token,${USDC},legit,note,extra`, /^line 1: 5 fields/);
    fails(`\ntoken,not-an-address,legit`, /^line 2: the token subject must be a base58 Solana address/);
    fails(`tx,${USDC},legit`, /^line 1: the tx subject must be a base58 transaction signature \(64 bytes\)/);
    fails(`token,${USDC},"a rug`, /^line 1: a quoted field is not closed$/);
    fails(`token,${USDC},very bad`, /^line 1: label "very bad" must be one word/);
    fails(`kind,address,note\ntoken,${USDC},x`, /^line 1: the header lacks label$/);
  });
});
