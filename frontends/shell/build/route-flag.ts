import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, type Rollup } from 'vite';
import { isChunk, withStaticImports } from './preload-shared.ts';

const SHELL_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = path.join(SHELL_ROOT, 'inline/route-flag.ts');
/** Where the build's data for the flag goes, until generateBundle knows all of it. */
const DATA_MARKER = '"__ROUTE_FLAG_DATA__"';

/**
 * The pages whose code the route flag starts fetching with the shell's: where visitors arrive (the
 * booking calendar), where staff start their day and patients come back (sign-in, the patient area),
 * and sign-up. Others load after the shell's code.
 */
const PRELOADED_PAGES: Record<string, string> = {
  '/dates': 'src/features/booking/components/BookingPage.tsx',
  '/login': 'src/features/auth/components/SignInPage.tsx',
  '/signup': 'src/features/auth/components/SignUpPage.tsx',
  '/user': 'src/features/my-appointment/components/MyAppointmentPage.tsx',
};

/** The chunk of each preloaded page and the chunks it imports, minus those the shell starts with. */
function routeChunks(bundle: Rollup.OutputBundle, startUp: Set<string>): Record<string, string[]> {
  const chunks = Object.values(bundle).filter(isChunk);
  const routes: Record<string, string[]> = {};
  for (const [route, page] of Object.entries(PRELOADED_PAGES)) {
    const entry = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(page));
    if (!entry) throw new Error(`no chunk for ${page}: update PRELOADED_PAGES`);
    routes[route] = withStaticImports(bundle, [entry.fileName])
      .map((file) => `/${file}`)
      .filter((href) => !startUp.has(href));
  }
  return routes;
}

/** inline/route-flag.ts as one minified classic script (its imports bundled in). */
async function bundleFlag(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    root: SHELL_ROOT,
    build: {
      write: false,
      minify: true,
      target: 'es2020',
      lib: { entry: SOURCE, formats: ['iife'], name: 'crmRouteFlag' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const chunk = outputs.flatMap((output) => output.output).find((file) => file.type === 'chunk');
  if (!chunk) throw new Error('inline/route-flag.ts: the bundle has no code');
  const code = chunk.code.trim();
  if (/<\/script|<!--/i.test(code))
    throw new Error('inline/route-flag.ts must not contain "</script" or "<!--"');
  return code;
}

/** JSON inside a <script>: no "<" that could close it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * The route flag (inline/route-flag.ts), inline in <head>: it must run before the first paint, and as
 * a file it would be a render-blocking request sharing a slow connection with the shell's code. The
 * gateway's CSP for index.html allows exactly the inline scripts the file contains, by hash
 * (gateway/src/shell-document.ts); nothing else may run inline.
 *
 * In a build the flag also starts the shell (on the pre-rendered routes after the first paint): the
 * entry's <script> and every <link rel="modulepreload"> that Vite and the federation plugin put into
 * index.html move into the flag's data, once all of them are there (the last `generateBundle`).
 */
export function routeFlag(): Plugin {
  let flag: Promise<string> | undefined;
  return {
    name: 'crm:route-flag',
    transformIndexHtml: {
      order: 'post',
      handler: async (html, { bundle }) => {
        flag ??= bundleFlag();
        // The dev server keeps Vite's own tags: the flag has nothing to start there.
        const data = bundle ? DATA_MARKER : scriptJson({ routeChunks: {} });
        return html.replace(
          '</head>',
          `  <script>(function (FROM_BUILD) {${await flag}})(${data});</script>\n  </head>`,
        );
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const document = bundle['index.html'];
        if (document?.type !== 'asset') return;
        let html = document.source.toString();
        const entry = ENTRY_SCRIPT.exec(html)?.[1];
        if (!entry || !html.includes(DATA_MARKER))
          throw new Error('index.html: no module entry or route flag to start it from');
        const preloads = [...html.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
        html = html.replace(ENTRY_SCRIPT, '').replace(MODULE_PRELOAD, '');
        const data = { routeChunks: routeChunks(bundle, new Set(preloads)), startUp: { entry, preloads } };
        document.source = html.replace(DATA_MARKER, () => scriptJson(data));
      },
    },
  };
}
