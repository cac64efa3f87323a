/**
 * Tokens whose centralisation is known and accepted by the market (regulated stablecoins,
 * wrapped SOL, major liquid-staking tokens). Their authority flags are still raised and shown,
 * but weighted down (×0.2): a caller should know USDC can be frozen, not be told to avoid it.
 */
export const TRUSTED_ISSUERS: ReadonlyMap<string, string> = new Map([
  ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'USDC (Circle)'],
  ['Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', 'USDT (Tether)'],
  ['2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo', 'PYUSD (Paxos)'],
  ['So11111111111111111111111111111111111111112', 'Wrapped SOL'],
  ['J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn', 'JitoSOL'],
  ['mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So', 'mSOL (Marinade)'],
  ['7dHbWXmci3dT8UFYWYZweBLXgycu7Y3iL6trKn1Y7ARj', 'stSOL (Lido)'],
  ['bSo13r4TkiE4KumL71LsHTPpL2euBYLFx6h9HP3piy1', 'bSOL (BlazeStake)'],
]);

export const TRUSTED_MULTIPLIER = 0.2;
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112';
/** Token-2022's wrapped SOL: like the classic one, its mint always shows supply 0. */
export const NATIVE_MINT_2022 = '9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP';
