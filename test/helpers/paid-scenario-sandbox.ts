/**
 * One describe block's paid sandbox as a customer meets it (customer-sandbox.ts) under an RPC
 * profile: its manifest's subjects, a scan paid with the official x402 client over real HTTP (a
 * 200 with its settlement receipt, or the test fails), and a check of a body against a subject's
 * `expect.flags` / `expect.notFlags`. Started in `before`, closed in `after`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { RpcProfileName } from '../../src/sandbox/rpc/profiles.js';
import type { ScenarioSubject } from '../../src/sandbox/scenarios/index.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { payingFetch, startCustomerSandbox } from './customer-sandbox.js';
import { jsonOf } from './service.js';

type Kind = 'pumpfun' | 'token';
export type AddressSubject<K extends Kind = Kind> = Extract<ScenarioSubject, { kind: K; address: string }>;

export interface PaidScenarioSandbox {
  /** The manifest's subject of that name and kind (pump.fun unless said); the test fails when it is missing. */
  find<K extends Kind = 'pumpfun'>(name: string, kind?: K): AddressSubject<K>;
  /** A paid scan of `address` on `/scan/<endpoint>`: its body, once settled. */
  scan(endpoint: 'pumpfun' | 'token', address: string): Promise<any>;
  /**
   * The body raises every code in `expect.flags` and none in `expect.notFlags` (of those `held`
   * picks, when given: the manifest speaks of the subject's own endpoint).
   */
  heldToManifest(s: AddressSubject, body: { flags: string[] }, held?: (code: string) => boolean): void;
}

export function usePaidScenarioSandbox(profile: RpcProfileName): PaidScenarioSandbox {
  const dir = mkdtempSync(join(tmpdir(), 'paid-scenarios-'));
  let sandbox: RunningSandbox;
  let subjects: ScenarioSubject[];
  let pay: typeof fetch;
  before(async () => {
    sandbox = await startCustomerSandbox(dir, profile);
    subjects = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8')).subjects;
    pay = await payingFetch(sandbox);
  });
  after(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    find<K extends Kind>(name: string, kind: K = 'pumpfun' as K) {
      const s = subjects.find((x) => x.name === name);
      assert.ok(s && s.kind === kind && 'address' in s, `the manifest lists ${name} (${kind})`);
      return s as AddressSubject<K>;
    },
    async scan(endpoint, address) {
      const res = await pay(`${sandbox.api.url}/scan/${endpoint}/${address}`);
      const body = await jsonOf(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.ok(res.headers.get('payment-response'), 'a settlement receipt comes with the result');
      return body;
    },
    heldToManifest(s, body, held = () => true) {
      for (const code of (s.expect.flags ?? []).filter(held))
        assert.ok(body.flags.includes(code), `${code} in ${body.flags}`);
      for (const code of (s.expect.notFlags ?? []).filter(held))
        assert.ok(!body.flags.includes(code), `${code} not in ${body.flags}`);
    },
  };
}
