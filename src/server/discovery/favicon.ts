/**
 * The service's icon, served at /favicon.svg for directories that show one next to a listing
 * (x402scan looks for /favicon.ico, .png or .svg). Original artwork: a shield with a check mark
 * on the Solana gradient, 32×32, no script, no external references.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#9945ff"/><stop offset="1" stop-color="#14f195"/></linearGradient></defs>
<rect width="32" height="32" rx="7" fill="#10111a"/>
<path d="M16 4.5 26 8v7.5c0 6.2-4.2 10.6-10 12.5-5.8-1.9-10-6.3-10-12.5V8z" fill="url(#g)"/>
<path d="m11 16.2 3.6 3.6 6.6-7.1" fill="none" stroke="#10111a" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;

export const FAVICON_TYPE = 'image/svg+xml';
