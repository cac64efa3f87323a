/**
 * The script that starts Swagger UI on the /docs page. It is served as its own file (not inline)
 * so the page's Content-Security-Policy can forbid inline scripts; it reads the document URL from
 * a data attribute, so the script is the same for every configuration and caches forever.
 */
export const DOCS_INIT_SCRIPT = `// Starts Swagger UI on #swagger-ui; see src/server/docs/init-script.ts.
(function () {
  'use strict';
  var root = document.getElementById('swagger-ui');
  // The page's own header already gives the title and what the service is: not twice.
  var ownIntro = root.getAttribute('data-own-intro') === 'true';
  var noInfo = function () {
    return { wrapComponents: { InfoContainer: function () { return function () { return null; }; } } };
  };
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi-url'),
    domNode: root,
    // Links like /docs#/scan/get_scan_token open that operation.
    deepLinking: true,
    // null: Swagger UI would otherwise load a badge from validator.swagger.io (an external host).
    validatorUrl: null,
    // A ?url= or ?configUrl= in the address must not point the page at another document.
    queryConfigEnabled: false,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: ownIntro ? [noInfo] : [],
    // BaseLayout: no top bar with a free-form "explore any URL" box; this page documents one API.
    layout: 'BaseLayout',
    displayRequestDuration: true
  });
})();
`;
