/**
 * The program rules' time windows, read by the rules (assess.ts) and by the flags' documented
 * meaning (flags.ts), so docs/risk-model.md prints the numbers the code uses.
 */

export const HOUR = 3600;
export const DAY = 24 * HOUR;

/** RECENTLY_UPGRADED: code deployed within `any` seconds; medium (strongest) within `strongest`. */
export const RECENT_UPGRADE_S = { strongest: DAY, any: 7 * DAY } as const;
/** FREQUENT_UPGRADES: this many upgrades or more within `windowS`. */
export const FREQUENT_UPGRADES = { count: 3, windowS: 30 * DAY } as const;
/** AUTHORITY_CHANGED_RECENTLY: the upgrade authority changed hands within this long. */
export const AUTHORITY_CHANGE_WINDOW_S = 30 * DAY;
/** PROGRAM_NEW: first deployed within this long. */
export const NEW_PROGRAM_S = 7 * DAY;

/** A window in whole days or hours, as the flags' meanings print it. */
export const span = (seconds: number) =>
  seconds >= 2 * DAY ? `${seconds / DAY} days` : `${seconds / HOUR} hours`;
