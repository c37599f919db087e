import { createRequire } from 'node:module';

/** `APP_VERSION`, else the deployable's package version; `GIT_COMMIT` when the build set it. */
export function deployableVersion(
  packageName: string,
  env: NodeJS.ProcessEnv = process.env,
): { version: string; commit: string | null } {
  let version = env.APP_VERSION?.trim() || undefined;
  if (!version) {
    try {
      const load = createRequire(__filename);
      version = (load(`${packageName}/package.json`) as { version?: string }).version;
    } catch {
      version = undefined;
    }
  }
  return { version: version ?? 'desconocida', commit: env.GIT_COMMIT?.trim() || null };
}
