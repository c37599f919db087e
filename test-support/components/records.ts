import { createRecordsService, RECORDS_QUEUE_PURPOSES } from '../../services/records/src/app';
import { loadRecordsConfig } from '../../services/records/src/config';
import { deleteConsumerQueues, serviceComponent } from './service-component';

/**
 * Needs `AUTH_SERVICE_URL`, `APPOINTMENTS_SERVICE_URL` and `CONFIG_SERVICE_URL` in `env`: list
 * `auth`, `appointments` and `config` before `records` in the stack's components.
 */
export const startRecords = serviceComponent('records', loadRecordsConfig, createRecordsService, {
  async afterStop(config) {
    for (const purpose of RECORDS_QUEUE_PURPOSES)
      await deleteConsumerQueues(config.AMQP_URL, `${config.QUEUE_PREFIX}.records.${purpose}`);
  },
});
