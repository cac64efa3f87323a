/**
 * The static files the /docs page needs, read from swagger-ui-dist once and kept in memory.
 * Each is published under a content-hashed name, so it can be cached forever ("immutable")
 * and a new swagger-ui-dist (or a new init script) is fetched fresh under a new URL.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DOCS_INIT_SCRIPT } from './init-script.js';

/** One servable file, ready to send: no disk access and no compression work per request. */
export interface DocsAsset {
  /** Content-hashed file name, the last segment of its URL. */
  readonly name: string;
  readonly contentType: string;
  readonly body: Uint8Array;
  /** Present for text assets: the same bytes, gzip-compressed at creation. */
  readonly gzipped?: Uint8Array;
  /** Strong validator derived from the content (not from the encoding). */
  readonly etag: string;
}

/** The assets the page links to, by role, plus a lookup by published name. */
export interface DocsAssets {
  readonly css: DocsAsset;
  readonly pageCss: DocsAsset;
  readonly bundle: DocsAsset;
  readonly init: DocsAsset;
  readonly favicon32: DocsAsset;
  readonly favicon16: DocsAsset;
  readonly byName: ReadonlyMap<string, DocsAsset>;
}

/** Folder of the installed swagger-ui-dist, via its own documented helper. */
function swaggerUiDistDir(): string {
  // absolute-path.js alone: the package's index.js would also evaluate the 1.7 MB browser bundle.
  const getAbsoluteFSPath = createRequire(import.meta.url)(
    'swagger-ui-dist/absolute-path.js',
  ) as () => string;
  return getAbsoluteFSPath();
}

/**
 * Drops the trailing `sourceMappingURL` comment: the maps are not served (several MB), and the
 * comment would point devtools at a hashed name that does not exist.
 */
function withoutSourceMapComment(text: string): string {
  return text.replace(/\n?\/[/*][#@] sourceMappingURL=[^\n]*\s*$/, '\n');
}

function makeAsset(baseName: string, extension: string, contentType: string, body: Uint8Array): DocsAsset {
  const digest = createHash('sha256').update(body).digest('hex');
  const compressible = contentType.startsWith('text/');
  return {
    name: `${baseName}.${digest.slice(0, 16)}.${extension}`,
    contentType,
    body,
    ...(compressible ? { gzipped: new Uint8Array(gzipSync(body, { level: 9 })) } : {}),
    etag: `"${digest.slice(0, 32)}"`,
  };
}

function textAsset(baseName: string, extension: string, contentType: string, text: string): DocsAsset {
  return makeAsset(baseName, extension, contentType, new TextEncoder().encode(text));
}

/** Reads and prepares every asset; throws at startup (not at the first request) if one is missing. */
export function loadDocsAssets(): DocsAssets {
  const dir = swaggerUiDistDir();
  const readText = (file: string) => withoutSourceMapComment(readFileSync(join(dir, file), 'utf8'));
  const readBytes = (file: string) => new Uint8Array(readFileSync(join(dir, file)));

  const css = textAsset('swagger-ui', 'css', 'text/css; charset=utf-8', readText('swagger-ui.css'));
  // swagger-ui-dist's own page stylesheet (body margin and background), kept out of the HTML so
  // the page needs no inline <style>.
  const pageCss = textAsset('index', 'css', 'text/css; charset=utf-8', readText('index.css'));
  const bundle = textAsset(
    'swagger-ui-bundle',
    'js',
    'text/javascript; charset=utf-8',
    readText('swagger-ui-bundle.js'),
  );
  const init = textAsset('docs-init', 'js', 'text/javascript; charset=utf-8', DOCS_INIT_SCRIPT);
  const favicon32 = makeAsset('favicon-32x32', 'png', 'image/png', readBytes('favicon-32x32.png'));
  const favicon16 = makeAsset('favicon-16x16', 'png', 'image/png', readBytes('favicon-16x16.png'));

  const all = [css, pageCss, bundle, init, favicon32, favicon16];
  return {
    css,
    pageCss,
    bundle,
    init,
    favicon32,
    favicon16,
    byName: new Map(all.map((asset) => [asset.name, asset])),
  };
}
