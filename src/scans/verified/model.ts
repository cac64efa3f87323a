/**
 * The verified-token registry's shapes: the tokens an agent is told to buy by ticker, each at its
 * one real mint, and the copy of the registry a scan used. Types only.
 */

/** A mint with the symbol and name its issuer gave it. */
export interface TokenNames {
  readonly mint: string;
  readonly symbol: string;
  readonly name: string;
}

/** A bridged or wrapped version under its own mint: listed, never an impersonator. */
export interface VerifiedVariant extends TokenNames {
  readonly note: string;
}

/** A verified token as the bundled data file lists it (data/verified-tokens.json). */
export interface VerifiedEntry extends TokenNames {
  readonly issuer: string | null;
  readonly variants: readonly VerifiedVariant[];
}

/** One listed mint: a verified token, or a variant of one. */
export interface Listing extends TokenNames {
  readonly issuer: string | null;
  /** The symbol of the token this mint is a variant of; null for the token itself. */
  readonly variantOf: string | null;
  /** The bundled data file, or the list the registry was refreshed from. */
  readonly from: 'bundled' | 'list';
}

/** A normalised form of a listed mint's symbol or name, as the index holds it. */
export interface ListedForm {
  readonly listing: Listing;
  readonly field: 'symbol' | 'name';
  readonly form: string;
}

/**
 * Which copy of the registry a scan used, as its evidence says: the bundled one alone, a list
 * read by this process at its latest refresh, or the last good copy kept while the latest read failed.
 */
export interface RegistryCopy {
  readonly copy: 'bundled' | 'refreshed' | 'last-good';
  /** Where the list came from (URL or file); the bundled file's name for the bundled copy. */
  readonly source: string;
  /** When the list in use was read (ISO); the bundled file's review date for the bundled copy. */
  readonly as_of: string | null;
  /** Mints listed, variants included. */
  readonly tokens: number;
  /** Why this copy: e.g. the latest refresh's failure. */
  readonly note: string;
}

export interface VerifiedRegistry {
  readonly copy: RegistryCopy;
  readonly byMint: ReadonlyMap<string, Listing>;
  readonly byForm: ReadonlyMap<string, readonly ListedForm[]>;
}
