import { lazy, Suspense, type ComponentType } from 'react';

/**
 * A component whose code loads the first time it renders (`React.lazy`), showing nothing until it has
 * arrived: for parts of the main entry that few pages use, so that their code stays out of the rest.
 */
export function loadedOnFirstRender<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P> {
  const Loaded = lazy(load);
  return function LoadedOnFirstRender(props: P) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}
