/**
 * The watch feature of one service instance, assembled from its three parts: the paid door's
 * steps around a POST /watch payment (the screen before it, the watch's creation once it settled),
 * and the triggers that follow the state's active watches and record each change there, from
 * where the state delivers it. Started and stopped with the service, in `serve` and the sandbox.
 */

import type { ScanId } from '../catalog.js';
import type { Config } from '../config.js';
import type { Fulfil, Screen } from '../door/paid-door.js';
import type { Scanner } from '../scans/scanner.js';
import type { RpcServes } from '../solana/program-search.js';
import type { SolanaRpc } from '../solana/rpc.js';
import { createWatchFulfil } from './door/fulfil.js';
import { createWatchScreen } from './door/screen.js';
import type { WatchState } from './model.js';
import { createAccountFeed } from './triggers/account-feed.js';
import { freshScan } from './triggers/fresh-scan.js';
import { WatchTriggers } from './triggers/triggers.js';
import { checkWebhook, type ResolveHost } from './webhook-url.js';

export interface WatchFeature {
  readonly state: WatchState;
  readonly screen: Screen;
  readonly fulfil: Fulfil;
  readonly triggers: WatchTriggers;
  /** What this instance follows now (for /health): subjects, and account subscriptions open. */
  following(): { readonly subjects: number; readonly subscriptions: number };
  /** Follows the active watches: subscriptions now, the periodic check every interval. */
  start(): void;
  stop(): Promise<void>;
}

export interface WatchFeatureDeps {
  readonly config: Pick<Config, 'mode' | 'watch' | 'scanTimeoutMs'>;
  readonly state: WatchState;
  readonly rpc: SolanaRpc;
  readonly scanners: Readonly<Partial<Record<ScanId, Scanner>>>;
  readonly serves?: () => Promise<RpcServes | undefined>;
  /** How the SSRF guard resolves webhook hosts (tests inject one); the system's by default. */
  readonly resolve?: ResolveHost;
  readonly log: { warn(fields: object, message: string): void; info(fields: object, message: string): void };
}

export function createWatchFeature(deps: WatchFeatureDeps): WatchFeature {
  const { config, state, log } = deps;
  const feed = config.watch.wsUrl === null ? null : createAccountFeed({ wsUrl: config.watch.wsUrl });
  const triggers = new WatchTriggers({
    watches: () => state.active(),
    rescan: freshScan({
      scanners: deps.scanners,
      rpc: deps.rpc,
      timeoutMs: config.scanTimeoutMs,
      ...(deps.serves ? { serves: deps.serves } : {}),
    }),
    // Recorded against the version the trigger compared with: of two instances that saw the
    // change, one records it (and the state delivers it once), the other is told null.
    onChange: async (watch, payload) => {
      const recorded = await state.recordChange(watch.id, watch.version, payload);
      const fields = { watch: watch.id, version: watch.version, webhookId: recorded?.webhookId ?? null };
      log.info(
        fields,
        recorded ? 'watch change recorded' : 'watch change already recorded, or the watch ended',
      );
    },
    feed,
    rescanBudget: config.watch.rescanBudget,
    debounceMs: config.watch.debounceMs,
    onError: (error, key) => log.warn({ err: error, watch: key }, 'watch re-assessment failed'),
  });
  const guard = { mode: config.mode, ...(deps.resolve ? { resolve: deps.resolve } : {}) };
  // Not awaited by whoever asks: a store that cannot be read now is reported, and the next
  // news or periodic check tries again.
  const resync = () => {
    triggers.sync().catch((e: unknown) => log.warn({ err: e }, 'active watches could not be read'));
  };
  let unlisten = () => {};
  return {
    state,
    triggers,
    screen: createWatchScreen({ state, checkWebhook: (url) => checkWebhook(url, guard) }),
    // A new watch is followed at once, not at the next periodic check.
    fulfil: createWatchFulfil(state, resync),
    following: () => ({ subjects: triggers.subjectCount, subscriptions: feed?.open ?? 0 }),
    start: () => {
      // A watch bought through another instance is followed here at once too.
      unlisten = state.watchesChanged?.(resync) ?? unlisten;
      triggers.start(config.watch.rescanIntervalMs);
    },
    stop: async () => {
      unlisten();
      await triggers.stop();
      feed?.close();
    },
  };
}
