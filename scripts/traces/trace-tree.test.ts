import { traceLines, type JaegerSpan, type JaegerTrace } from './trace-tree';

const T0 = 1_700_000_000_000_000;
const span = (
  id: string,
  parent: string | undefined,
  at: number,
  took: number,
  extra: Partial<JaegerSpan> = {},
) =>
  ({
    spanID: id,
    operationName: id,
    references: parent ? [{ refType: 'CHILD_OF', spanID: parent }] : [],
    startTime: T0 + at,
    duration: took,
    processID: 'p1',
    ...extra,
  }) as JaegerSpan;

const trace: JaegerTrace = {
  traceID: 'abc',
  processes: {
    p1: { serviceName: 'gateway' },
    p2: { serviceName: 'appointments' },
    p3: { serviceName: 'notifications' },
  },
  spans: [
    // Out of order on purpose: the API does not sort them.
    span('process appointments.appointment.booked.v1', 'publish', 9_000, 2_000, {
      processID: 'p3',
      tags: [
        { key: 'crm.delivery.outcome', value: 'retry' },
        { key: 'otel.status_code', value: 'ERROR' },
      ],
      logs: [{ fields: [{ key: 'event', value: 'retry scheduled' }] }],
    }),
    span('POST /api/v1/dates', undefined, 0, 12_000, {
      tags: [{ key: 'http.response.status_code', value: 201 }],
    }),
    span('publish', 'POST /dates', 8_000, 500, { processID: 'p2' }),
    span('POST /dates', 'POST /api/v1/dates', 1_000, 6_000, { processID: 'p2' }),
    // Its parent was not exported (sampled out elsewhere): drawn as a root, not lost.
    span('orphan', 'missing', 20_000, 1_000),
  ],
};

it('draws parents before children, siblings by start, with outcomes and events', () => {
  expect(traceLines(trace)).toEqual([
    'trace abc: 5 spans, 3 services, 21.0 ms',
    '    0.0 ms    12.0 ms  gateway: POST /api/v1/dates  [201]',
    '    1.0 ms     6.0 ms    appointments: POST /dates',
    '    8.0 ms     0.5 ms      appointments: publish',
    '    9.0 ms     2.0 ms        notifications: process appointments.appointment.booked.v1  [retry ✗ error]',
    '                               · retry scheduled',
    '   20.0 ms     1.0 ms  gateway: orphan',
  ]);
});
