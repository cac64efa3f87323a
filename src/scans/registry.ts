/**
 * The scanner and flag catalog of each paid endpoint in this build. An endpoint missing here
 * refuses payment with a 402 (nothing is charged) rather than selling a result it cannot make.
 */
import type { ScanId } from '../catalog.js';
import { PROGRAM_FLAGS } from './program/flags.js';
import { scanProgram } from './program/index.js';
import { PUMPFUN_FLAGS } from './pumpfun/flags.js';
import { scanPumpfun } from './pumpfun/index.js';
import type { FlagCatalog } from './risk/model.js';
import type { Scanner } from './scanner.js';
import { SIMULATE_FLAGS } from './simulate/flags.js';
import { simulateTransaction } from './simulate/index.js';
import { TOKEN_FLAGS } from './token/flags.js';
import { scanToken } from './token/index.js';
import { TX_FLAGS } from './tx/flags.js';
import { verifyTransaction } from './tx/index.js';
import { WALLET_FLAGS } from './wallet/flags.js';
import { scanWallet } from './wallet/index.js';

export const SCANNERS: Readonly<Record<ScanId, Scanner>> = {
  tx: verifyTransaction,
  program: scanProgram,
  wallet: scanWallet,
  token: scanToken,
  pumpfun: scanPumpfun,
  simulate: simulateTransaction,
};

export const FLAG_CATALOGS: Readonly<Record<ScanId, FlagCatalog>> = {
  tx: TX_FLAGS,
  program: PROGRAM_FLAGS,
  wallet: WALLET_FLAGS,
  token: TOKEN_FLAGS,
  pumpfun: PUMPFUN_FLAGS,
  simulate: SIMULATE_FLAGS,
};
