import type { Express } from 'express';

/**
 * The types the files of this folder share. They live here, on their own, so that the runtime and the
 * parts it wires (the access trail, the ended sessions) import them from one place instead of from
 * each other.
 */

/** Work that runs every `intervalMs` while the service runs (first run at start-up). */
export interface BackgroundTask {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
}

/** What every deployable exposes: its HTTP app, and how to start and stop its background work. */
export interface ServiceHandle {
  app: Express;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once every consumer queue is bound to the exchange (tests wait for it). */
  consuming(timeoutMs?: number): Promise<void>;
  /** The queues it consumes from, with their retry and dead-letter queues (test clean-up). */
  queueNames(): string[];
}
