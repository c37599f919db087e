import { z } from 'zod';
import type { PersonalDataExport } from '@crm/contracts';
import { getFromService, jsonOf, serviceUnavailable } from '@crm/server-kit';
import type { PatientDataSource } from '../domain/privacy.service';

const appointmentsAnswer = z.object({
  appointments: z.array(
    z.object({
      id: z.string(),
      date: z.string(),
      status: z.string(),
      createdAt: z.string().optional(),
      refundable: z.boolean().optional(),
    }),
  ),
});

const recordsAnswer = z.object({
  records: z.array(
    z.object({
      id: z.string(),
      date: z.object({ date: z.string() }),
      doctor: z.object({ name: z.string() }),
      updatedAt: z.string(),
      metadata: z.record(
        z.string(),
        z.object({
          label: z.string(),
          value: z.union([z.string(), z.number()]),
          selectedLabel: z.string().optional(),
        }),
      ),
    }),
  ),
});

/**
 * A patient's appointments and clinical records, asked of their services with the patient's own
 * token (each service applies its own rules: a patient reads only their own).
 */
export class PatientDataClient implements PatientDataSource {
  constructor(
    private readonly appointmentsUrl: string,
    private readonly recordsUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async appointmentsOf(caller: {
    id: string;
    bearerToken: string;
  }): Promise<PersonalDataExport['appointments']> {
    const answer = await this.read(
      this.appointmentsUrl,
      `/dates/history/userid/${caller.id}`,
      caller,
      appointmentsAnswer,
    );
    return answer.appointments.map(({ id, date, status, createdAt, refundable }) => ({
      id,
      date,
      status,
      ...(createdAt ? { createdAt } : {}),
      ...(refundable !== undefined ? { refundable } : {}),
    }));
  }

  async recordsOf(caller: { id: string; bearerToken: string }): Promise<PersonalDataExport['records']> {
    const answer = await this.read(this.recordsUrl, '/records/mine', caller, recordsAnswer);
    return answer.records.map((record) => ({
      id: record.id,
      date: record.date.date,
      doctor: record.doctor.name,
      updatedAt: record.updatedAt,
      fields: Object.values(record.metadata).map((entry) => ({
        label: entry.label,
        value: entry.selectedLabel ?? String(entry.value),
      })),
    }));
  }

  private async read<T>(
    baseUrl: string,
    path: string,
    caller: { bearerToken: string },
    schema: z.ZodType<T>,
  ): Promise<T> {
    const response = await getFromService(baseUrl, path, caller, this.timeoutMs);
    if (!response.ok) {
      await response.body?.cancel();
      throw serviceUnavailable();
    }
    const parsed = schema.safeParse(await jsonOf(response));
    if (!parsed.success) throw serviceUnavailable();
    return parsed.data;
  }
}
