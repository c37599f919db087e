import type { IndexHtmlTransformContext, Plugin, Rollup } from 'vite';
import { LOAD_SHARE_MARKER } from './package-layout.ts';

type OutputBundle = Rollup.OutputBundle;

export const isChunk = (output: OutputBundle[string] | undefined): output is Rollup.OutputChunk =>
  output?.type === 'chunk';

/** These chunks and every chunk they import statically, in turn (what loading them fetches). */
export function withStaticImports(bundle: OutputBundle, fileNames: Iterable<string>): string[] {
  const found = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (!isChunk(chunk) || found.has(fileName)) return;
    found.add(fileName);
    chunk.imports.forEach(visit);
  };
  for (const fileName of fileNames) visit(fileName);
  return [...found];
}

/**
 * The files the shared singletons' chunks (`…__loadShare__…`) import when the federation runtime
 * starts them, with everything those files import in turn: on every page, at start-up.
 */
function startUpImports(bundle: OutputBundle): string[] {
  const loadShares = Object.values(bundle)
    .filter(isChunk)
    .filter((chunk) => chunk.fileName.includes(LOAD_SHARE_MARKER));
  return withStaticImports(
    bundle,
    loadShares.flatMap((chunk) => chunk.dynamicImports),
  );
}

/**
 * Vite preloads the entry's static imports, but the shared singletons are started by the federation
 * runtime, whose chunks then import their code (web-kit and its dependencies) one level after another:
 * on a slow mobile connection each level costs a round trip before the page can render (the "depth
 * of the request chain"). This adds those files to index.html as module preloads, so the
 * browser fetches them in parallel with the entry from the start; the later `import()` finds them
 * already loaded (one download each).
 */
export function preloadSharedStartUp(): Plugin {
  return {
    name: 'crm:preload-shared-start-up',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html: string, { bundle }: IndexHtmlTransformContext) => {
        if (!bundle) return html;
        const links = startUpImports(bundle).map(
          (fileName) => `    <link rel="modulepreload" crossorigin href="/${fileName}">`,
        );
        return links.length ? html.replace('</head>', `${links.join('\n')}\n  </head>`) : html;
      },
    },
  };
}
