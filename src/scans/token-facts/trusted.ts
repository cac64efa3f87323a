/**
 * Tokens whose centralisation is known and accepted by the market (regulated stablecoins,
 * wrapped SOL, major liquid-staking tokens). Their authority flags are still raised and shown,
 * but weighted down (×0.2): a caller should know USDC can be frozen, not be told to avoid it.
 * The summary and recommendation then name the issuer and its powers (issuer-control.ts).
 */

/** What kind of issuer it is decides what its control means for a holder. */
export type IssuerKind = 'regulated-stablecoin' | 'liquid-staking' | 'wrapped-sol';

export interface TrustedIssuer {
  /** As evidence and facts carry it ("PYUSD (Paxos)"); clients may key on it. */
  readonly label: string;
  /** The token's ticker: "PYUSD". */
  readonly asset: string;
  /** Who issues it and holds its authorities: "Paxos". */
  readonly issuer: string;
  readonly kind: IssuerKind;
}

const issuer = (asset: string, name: string, kind: IssuerKind, label = `${asset} (${name})`) =>
  ({ label, asset, issuer: name, kind }) as const satisfies TrustedIssuer;

export const TRUSTED_ISSUERS: ReadonlyMap<string, TrustedIssuer> = new Map([
  ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', issuer('USDC', 'Circle', 'regulated-stablecoin')],
  ['Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', issuer('USDT', 'Tether', 'regulated-stablecoin')],
  ['2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo', issuer('PYUSD', 'Paxos', 'regulated-stablecoin')],
  [
    'So11111111111111111111111111111111111111112',
    issuer('wSOL', 'the SPL Token program', 'wrapped-sol', 'Wrapped SOL'),
  ],
  ['J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn', issuer('JitoSOL', 'Jito', 'liquid-staking', 'JitoSOL')],
  ['mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So', issuer('mSOL', 'Marinade', 'liquid-staking')],
  ['7dHbWXmci3dT8UFYWYZweBLXgycu7Y3iL6trKn1Y7ARj', issuer('stSOL', 'Lido', 'liquid-staking')],
  ['bSo13r4TkiE4KumL71LsHTPpL2euBYLFx6h9HP3piy1', issuer('bSOL', 'BlazeStake', 'liquid-staking')],
]);

export const TRUSTED_MULTIPLIER = 0.2;
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112';
/** Token-2022's wrapped SOL: like the classic one, its mint always shows supply 0. */
export const NATIVE_MINT_2022 = '9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP';
