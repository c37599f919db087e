import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { contentSecurityPolicyAllowing } from './security-headers';

/**
 * The shell's index.html as served: its bytes, their ETag (for 304s, worked out once per read rather
 * than on every answer) and the CSP that lets its own inline scripts run.
 */
export interface ShellDocument {
  body: Buffer;
  etag: string;
  contentSecurityPolicy: string;
}

/** `<script>` elements without attributes: the build's inline scripts (external ones have `src`). */
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(([, code]) =>
    createHash('sha256').update(code!, 'utf8').digest('base64'),
  );
}

/**
 * Reads index.html (and works out its CSP) once, and again only when the file changes (a new build),
 * so the CSP always names the inline scripts of the document it goes with. Rejects (ENOENT) while the shell is not built.
 */
export function shellDocumentLoader(
  file: string,
  formTargets: readonly string[] = [],
): () => Promise<ShellDocument> {
  let cached: { mtimeMs: number; size: number; document: ShellDocument } | undefined;
  return async () => {
    const { mtimeMs, size } = await stat(file);
    if (cached?.mtimeMs === mtimeMs && cached.size === size) return cached.document;
    const body = await readFile(file);
    const scriptHashes = inlineScriptHashes(body.toString('utf8'));
    const document = {
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
      contentSecurityPolicy: contentSecurityPolicyAllowing(scriptHashes, formTargets),
    };
    cached = { mtimeMs, size, document };
    return document;
  };
}
