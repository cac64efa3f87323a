/** Version labels. The interface description's own version is fixed by the contract. */
import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

/** Version of this build of the service (package.json). */
export const SERVICE_VERSION: string = pkg.version;
/** `info.version` of /openapi.json, as the contract declares it. */
export const INTERFACE_VERSION = '0.0.0';
/** x402 protocol version of the advertised offer. */
export const X402_VERSION = 1;
