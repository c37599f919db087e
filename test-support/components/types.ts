import type { Logger } from '@crm/server-kit';

/** One deployable started in-process for a test stack. */
export interface StartedComponent {
  /** Base URL of its HTTP server (services); the gateway is pointed at it. */
  url?: string;
  /** Databases it created, dropped when the stack stops. */
  databases: string[];
  stop(): Promise<void>;
  /** Anything a test may want to reach into (models, the service object). */
  handle?: unknown;
}

export interface ComponentContext {
  env: NodeJS.ProcessEnv;
  /** Unique per stack: prefix for databases. */
  id: string;
  logger: (name: string) => Logger;
}

export type ComponentStarter = (context: ComponentContext) => Promise<StartedComponent>;
