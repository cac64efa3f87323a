/**
 * The insider-cluster rule (src/scans/token/insiders/clusters.ts), on facts alone, at each of its
 * thresholds: the creator ties any wallet it funded (hop 1 or 2); a common funder ties
 * MIN_FRESH_WALLETS fresh wallets and not one fewer, nor stale ones; a well-known funder ties no
 * one and ends the chain; the severity follows the combined share at 5 % and 20 %.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  clusterSeverity,
  type FundedWallet,
  insiderClusters,
} from '../../../src/scans/token/insiders/clusters.js';
import * as known from '../../../src/scans/token/insiders/well-known-funders.js';
import {
  CLUSTER_SHARE_HIGH,
  CLUSTER_SHARE_MEDIUM,
  MIN_FRESH_WALLETS,
} from '../../../src/scans/token/thresholds.js';
import { wallet } from '../../helpers/labelled-keys.js';

const labelled = (l: string): string => wallet(`insiders: ${l}`);
const [CREATOR, FUNDER, HUB] = [labelled('creator'), labelled('funder'), labelled('intermediate')];
const EXCHANGE = known.WELL_KNOWN_FUNDERS[0]!.address;
const context = { creator: CREATOR, wellKnown: known.WELL_KNOWN_FUNDER_ADDRESSES };

const funded = (n: number, funders: string[], over: Partial<FundedWallet> = {}): FundedWallet[] =>
  Array.from({ length: n }, (_, i) => ({
    wallet: wallet(`insiders: holder ${funders.join('>')} ${over.fresh ?? true} ${i}`),
    share: 0.02,
    funders,
    fresh: true,
    ...over,
  }));

describe('insider clusters by funding', () => {
  it('the creator ties every wallet it funded, at hop 1 or through one intermediate (hop 2), even one wallet', () => {
    const [cluster, ...rest] = insiderClusters(
      [...funded(1, [CREATOR]), ...funded(1, [HUB, CREATOR], { fresh: false })],
      context,
    );
    assert.equal(rest.length, 0);
    assert.equal(cluster?.kind, 'creator');
    assert.equal(cluster?.funder, CREATOR);
    assert.equal(cluster?.hops, 2);
    assert.equal(cluster?.wallets.length, 2);
    assert.ok(Math.abs((cluster?.share ?? 0) - 0.04) < 1e-9);
  });

  it(`a common funder ties ${MIN_FRESH_WALLETS} fresh wallets, not ${MIN_FRESH_WALLETS - 1}, and not stale ones`, () => {
    assert.equal(insiderClusters(funded(MIN_FRESH_WALLETS - 1, [FUNDER]), context).length, 0);
    assert.equal(insiderClusters(funded(MIN_FRESH_WALLETS, [FUNDER], { fresh: false }), context).length, 0);
    const [cluster] = insiderClusters(funded(MIN_FRESH_WALLETS, [FUNDER]), context);
    assert.deepEqual([cluster?.kind, cluster?.funder, cluster?.hops], ['common-funder', FUNDER, 1]);
  });

  it('wallets funded each by its own intermediate, all funded by one wallet, cluster at hop 2', () => {
    const wallets = [0, 1, 2].flatMap((i) => funded(1, [wallet(`insiders: hop ${i}`), FUNDER]));
    const [cluster] = insiderClusters(wallets, context);
    assert.deepEqual([cluster?.funder, cluster?.hops, cluster?.wallets.length], [FUNDER, 2, 3]);
  });

  it('a well-known funder (an exchange hot wallet) ties no one, and the chain stops there', () => {
    assert.equal(insiderClusters(funded(10, [EXCHANGE]), context).length, 0);
    // Funded by the exchange, which was "funded" by the creator: the exchange ends the trace.
    assert.equal(insiderClusters(funded(5, [EXCHANGE, CREATOR]), context).length, 0);
  });

  it('the creator itself is not its own insider; clusters come largest share first', () => {
    const clusters = insiderClusters(
      [
        { wallet: CREATOR, share: 0.5, funders: [CREATOR], fresh: true },
        ...funded(1, [CREATOR], { share: 0.01 }),
        ...funded(3, [FUNDER], { share: 0.1 }),
      ],
      context,
    );
    assert.deepEqual(
      clusters.map((c) => [c.kind, c.wallets.length]),
      [
        ['common-funder', 3],
        ['creator', 1],
      ],
    );
  });

  it(`severity by combined share: none below ${CLUSTER_SHARE_MEDIUM}, medium from it, high from ${CLUSTER_SHARE_HIGH}`, () => {
    assert.equal(clusterSeverity(CLUSTER_SHARE_MEDIUM - 1e-9), 'none');
    assert.equal(clusterSeverity(CLUSTER_SHARE_MEDIUM), 'medium');
    assert.equal(clusterSeverity(CLUSTER_SHARE_HIGH - 1e-9), 'medium');
    assert.equal(clusterSeverity(CLUSTER_SHARE_HIGH), 'high');
  });

  it('every well-known funder names at least one public source', () => {
    for (const f of known.WELL_KNOWN_FUNDERS)
      assert.ok(f.sources.length > 0 && f.label.length > 0, f.address);
  });
});
