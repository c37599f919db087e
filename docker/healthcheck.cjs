// The image's HEALTHCHECK: GET /healthz on the process's own port. PORT when set, else the
// deployable's default (the same defaults as each config.ts). Exits 0 when healthy, 1 otherwise.
const DEFAULT_PORTS = {
  gateway: 8080,
  'services/auth': 4001,
  'services/appointments': 4002,
  'services/records': 4003,
  'services/rooms': 4004,
  'services/config': 4005,
  'services/audit': 4006,
  'services/reporting': 4007,
  'services/payments': 4008,
  'services/notifications': 4010,
};
const port = process.env.PORT || DEFAULT_PORTS[process.env.WORKSPACE];
if (!port) {
  console.error(`healthcheck: no PORT and no default for WORKSPACE=${process.env.WORKSPACE}`);
  process.exit(1);
}
fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(8000) }).then(
  (response) => process.exit(response.ok ? 0 : 1),
  () => process.exit(1),
);
