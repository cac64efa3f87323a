/** The /docs HTML page and the policy that keeps it from loading anything from another host. */
import type { DocsAssets } from './assets.js';
import type { DocsIntro } from './intro.js';

/**
 * Same-origin only, so the browser itself refuses any external fetch; scripts strictly 'self'
 * (the init script is a file) and `data:` images for the icons swagger-ui.css embeds.
 * Styles keep `'unsafe-inline'` as a margin for Swagger UI views the tests do not open: React sets
 * styles through the CSSOM, which CSP does not govern, and the tested views run without it.
 * The last three directives are not covered by default-src; they only tighten.
 *
 * `apiOrigin` is PUBLIC_BASE_URL's origin: the OpenAPI document names it as the server, so
 * "try it out" calls it even when the page was opened through another address (the service
 * itself, behind the proxy). It is the one other origin the page may connect to.
 */
export function docsContentSecurityPolicy(apiOrigin: string | null): string {
  return [
    "default-src 'self'",
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "script-src 'self'",
    apiOrigin === null ? "connect-src 'self'" : `connect-src 'self' ${apiOrigin}`,
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** Escaped text whose `backticked` spans become <code>. */
function withCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** The MCP endpoint, listed with the other ways in (Swagger UI shows only the OpenAPI document). */
export interface DocsMcpSection {
  readonly path: string;
  readonly tools: readonly { readonly name: string; readonly summary: string; readonly price: string }[];
  /** How a tool is paid, in a sentence. */
  readonly payment: string;
  /** How a host that cannot pay runs a local paying server, in a sentence. */
  readonly local: string;
}

/** Plain HTML inside swagger-ui.css's own wrapper classes: no style of its own, no script. */
function renderMcpSection(mcp: DocsMcpSection): string {
  const tools = mcp.tools
    .map(
      (t) =>
        `<li><code>${escapeHtml(t.name)}</code> — ${escapeHtml(t.summary)} — ${escapeHtml(t.price)}</li>`,
    )
    .join('\n');
  return `<section id="mcp">
<h3>MCP: <code>POST ${escapeHtml(mcp.path)}</code></h3>
<p>The same scans as Model Context Protocol tools (Streamable HTTP). ${escapeHtml(mcp.payment)}</p>
<ul>
${tools}
</ul>
<p>${escapeHtml(mcp.local)}</p>
</section>
`;
}

/**
 * What a visitor reads first — the name, what it is, how to pay — then the ways in, MCP among
 * them, all before the reference. Swagger UI's own title block is left out (init-script.ts).
 */
function renderIntro(intro: DocsIntro, openapi: string, mcp: DocsMcpSection | undefined): string {
  const paragraphs = (lines: readonly string[]) => lines.map((l) => `<p>${withCode(l)}</p>`).join('\n');
  const items = (lines: readonly string[]) => lines.map((l) => `<li>${withCode(l)}</li>`).join('\n');
  const ways = intro.waysIn.map(
    (w) => `<li><strong>${escapeHtml(w.name)}</strong>: ${withCode(w.text)}</li>`,
  );
  return `<header id="intro" class="swagger-ui"><div class="wrapper"><div class="info">
<h1 id="title" class="title">${escapeHtml(intro.name)}</h1>
<p id="what">${withCode(intro.what)}</p>
<section id="paying">
<h2>How to pay</h2>
${paragraphs(intro.paying)}
<ul>
${items(intro.prices)}
</ul>
<p>The whole interface: <a href="${openapi}">${openapi}</a>.</p>
</section>
<section id="ways-in">
<h2>Ways in</h2>
<ul>
${ways.join('\n')}
</ul>
${mcp === undefined ? '' : renderMcpSection(mcp)}</section>
</div></div></header>
`;
}

export interface DocsPageOptions {
  readonly title: string;
  readonly openapiPath: string;
  /** URL path under which the assets are served, without a trailing slash. */
  readonly assetsPath: string;
  readonly assets: DocsAssets;
  readonly mcp?: DocsMcpSection;
  /** Name, what it is, how to pay and the ways in, above the reference; absent = the reference alone. */
  readonly intro?: DocsIntro;
}

/** The intro (with MCP among the ways in), or MCP alone above the reference, or nothing. */
function top(options: DocsPageOptions, openapi: string): string {
  if (options.intro !== undefined) return renderIntro(options.intro, openapi, options.mcp);
  if (options.mcp === undefined) return '';
  return `<section class="swagger-ui"><div class="wrapper">\n${renderMcpSection(options.mcp)}</div></section>\n`;
}

/** The whole page; it never changes after startup, so it is rendered once. */
export function renderDocsPage(options: DocsPageOptions): string {
  const { assets } = options;
  const url = (asset: { readonly name: string }) => escapeHtml(`${options.assetsPath}/${asset.name}`);
  const title = escapeHtml(options.title);
  const openapi = escapeHtml(options.openapiPath);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" type="image/png" sizes="32x32" href="${url(assets.favicon32)}">
<link rel="icon" type="image/png" sizes="16x16" href="${url(assets.favicon16)}">
<link rel="stylesheet" href="${url(assets.css)}">
<link rel="stylesheet" href="${url(assets.pageCss)}">
<script defer src="${url(assets.bundle)}"></script>
<script defer src="${url(assets.init)}"></script>
</head>
<body>
<noscript><p>${title}: this interactive reference needs JavaScript. The API description itself is at <a href="${openapi}">${openapi}</a>.</p></noscript>
${top(options, openapi)}<div id="swagger-ui" data-openapi-url="${openapi}" data-own-intro="${options.intro === undefined ? 'false' : 'true'}"></div>
</body>
</html>
`;
}
