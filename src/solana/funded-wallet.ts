/**
 * A mainnet system account that always holds SOL, used as the fee payer of transactions the
 * scanner only simulates (`sigVerify: false`): nothing is signed or sent, so no key is needed and
 * the account is never touched; it only lets the runtime charge a fee and a new account's rent to
 * someone who can pay, so what the simulation answers is about the token, not about a holder's SOL.
 *
 * 5tzFkiKscXHK5ZXCGbXZxdw7gTjjD1mBwuoFbhUvuAi9 is a Binance hot wallet ("Binance 2" in public
 * exchange-address lists built from Solscan's labels). The recorded mainnet transaction
 * fixtures/mainnet/rpc/getTransaction-jsonParsed-multi-sol-transfer-2msqMqeU.json shows it as a
 * system-program signer paying out SOL with ~2.56 million SOL left (slot 419246800). Should it
 * ever run dry, the simulation fails before running and says so: less confidence, never a flag.
 * The sandbox funds the same address at genesis, as mainnet has it.
 */
import { address } from '@solana/kit';

export const SIMULATION_FEE_PAYER = address('5tzFkiKscXHK5ZXCGbXZxdw7gTjjD1mBwuoFbhUvuAi9');
