/**
 * Data: exchange hot wallets, which fund many unrelated wallets. A common funder among them says
 * nothing about who is behind the wallets, so they never make an insider cluster on their own.
 * Each entry names the public lists that label it; lists differ on *which* exchange holds some of
 * them, never on their being exchange hot wallets. Small on purpose: a missing exchange can only
 * make a cluster of its customers, which the cluster's evidence then shows by its funder.
 */
export interface WellKnownFunder {
  readonly address: string;
  readonly label: string;
  readonly sources: readonly string[];
}

const GOALB = 'github.com/dwdwow/goalb, addrs/sol_cex.go';
const PRIVACY_SCANNER = 'github.com/taylorferran/solana-privacy-scanner, docs/docs/reports/known-entities.md';

export const WELL_KNOWN_FUNDERS: readonly WellKnownFunder[] = [
  {
    address: '5tzFkiKscXHK5ZXCGbXZxdw7gTjjD1mBwuoFbhUvuAi9',
    label: 'Binance hot wallet',
    sources: [
      `${GOALB} (binance2)`,
      `${PRIVACY_SCANNER} (Binance Hot Wallet)`,
      'fixtures/mainnet/rpc/getTransaction-jsonParsed-multi-sol-transfer-2msqMqeU.json (pays out SOL, ~2.56 million SOL left)',
    ],
  },
  {
    address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
    label: 'exchange hot wallet (Binance or Coinbase, by list)',
    sources: [`${GOALB} (binance3)`, `${PRIVACY_SCANNER} (Coinbase Custody)`],
  },
  {
    address: '2ojv9BAiHUrvsm9gxDe7fJSzbNZSJcxZvf8dqmWGHG8S',
    label: 'exchange hot wallet (Binance or FTX, by list)',
    sources: [`${GOALB} (binance1)`, `${PRIVACY_SCANNER} (FTX Hot Wallet)`],
  },
  {
    address: 'H8sMJSCQxfKiFTCfDR3DUMLPwcRbM61LGFJ8N4dK3WjS',
    label: 'Bybit hot wallet',
    sources: [`${PRIVACY_SCANNER} (Bybit Hot Wallet)`],
  },
];

export const WELL_KNOWN_FUNDER_ADDRESSES: ReadonlySet<string> = new Set(
  WELL_KNOWN_FUNDERS.map((f) => f.address),
);
