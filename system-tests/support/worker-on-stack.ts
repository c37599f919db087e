import { waitForQueue } from '@crm/testing';
import { MailTally } from './mail-tally';
import type { Summary } from './summary';
import { startSystemStack, type SystemStack } from './system-stack';
import { WorkerProcess } from './worker-process';

export interface WorkerOnStack {
  stack: SystemStack;
  /** The e-mail worker, a child process the test may kill and start again. */
  worker: WorkerProcess;
  /** The e-mails of this run (addresses containing `run`) at the SMTP catcher. */
  mail: MailTally;
  /** The worker's database. */
  database: string;
}

/**
 * The set-up of a test that kills the e-mail worker: the system stack without a worker of its own,
 * the worker as a child process (on `<prefix>_notifications`, with `env` on top of the stack's),
 * ready once it has declared `queues` (names after `<prefix>.notifications.`). After the file: the
 * worker stopped, the summary printed, the run's e-mails deleted, the stack stopped.
 */
export function workerOnSystemStack(
  options: { run: string; summary: Summary; queues: string[]; env?: NodeJS.ProcessEnv },
  ready: (started: WorkerOnStack) => void,
): void {
  let started: Partial<WorkerOnStack> = {};
  beforeAll(async () => {
    const stack = await startSystemStack({ notifications: false });
    const database = `${stack.env.QUEUE_PREFIX}_notifications`;
    const mail = new MailTally(stack.mailApiUrl, options.run);
    const worker = new WorkerProcess({
      ...stack.envFor('notifications'),
      MONGO_DB: database,
      ...options.env,
    });
    started = { stack, mail, worker, database };
    worker.start();
    const prefix = `${stack.env.QUEUE_PREFIX}.notifications.`;
    for (const queue of options.queues)
      await waitForQueue(stack.amqpUrl, prefix + queue, { consumers: 0, timeoutMs: 60_000 });
    ready({ stack, worker, mail, database });
  }, 120_000);

  afterAll(async () => {
    await started.worker?.stop();
    options.summary.print();
    await started.mail?.deleteAll();
    await started.stack?.stop();
  });
}
