import type { Role } from '../roles';

/** The deployables that answer HTTP calls behind the gateway (the key of `<NAME>_SERVICE_URL`). */
export type ApiService =
  'auth' | 'appointments' | 'records' | 'rooms' | 'config' | 'audit' | 'reporting' | 'payments';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Who may call a route: anyone without a token, or a bearer token with one of these roles. */
export type RouteAccess = 'public' | readonly Role[];

export interface ApiRoute {
  method: ApiMethod;
  /** Service path (after /api/v1); `:name` stands for exactly one non-empty segment. */
  path: string;
  service: ApiService;
  access: RouteAccess;
  /** Object-level rule on top of the role, when there is one (documentation for people and tests). */
  owner?: string;
  /** Takes a JSON body. */
  body?: boolean;
  /** Query parameters it reads. */
  query?: readonly string[];
}

const ANY_ROLE: readonly Role[] = ['PACIENT', 'DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'];
const STAFF: readonly Role[] = ['DOCTOR', 'ADMIN'];
const PAGE = ['page', 'limit', 'search'] as const;
const AUDIT_FILTERS = ['patientId', 'actorId', 'action', 'from', 'to', 'search'] as const;

/**
 * Every call behind the gateway and who may make it: the one source of truth for the gateway's
 * public-route list, and for the system tests, which fail when a running service has a route that
 * is not listed here (or this table lists one that no service has). Services mount their routes
 * from it (server-kit's `tableRouter`): the roles each service checks are the ones written here.
 */
const ROUTE_TABLE = [
  // auth
  { method: 'POST', path: '/auth/signIn', service: 'auth', access: 'public', body: true },
  { method: 'POST', path: '/auth/signUp', service: 'auth', access: 'public', body: true },
  { method: 'POST', path: '/auth/forgotPassword', service: 'auth', access: 'public', body: true },
  { method: 'POST', path: '/auth/resendConfirmation', service: 'auth', access: 'public', body: true },
  { method: 'POST', path: '/auth/resetPassword/:token', service: 'auth', access: 'public', body: true },
  { method: 'GET', path: '/auth/confirmAccount/:token', service: 'auth', access: 'public' },
  { method: 'GET', path: '/auth/currentUser', service: 'auth', access: ANY_ROLE, owner: 'the caller only' },
  { method: 'POST', path: '/auth/signOut', service: 'auth', access: ANY_ROLE, owner: 'the caller only' },
  { method: 'POST', path: '/auth/doctor/patient/create', service: 'auth', access: STAFF, body: true },
  // auth: the session token keys (only the auth service signs; everyone verifies with these)
  { method: 'GET', path: '/auth/.well-known/jwks.json', service: 'auth', access: 'public' },
  { method: 'POST', path: '/auth/signing-keys/rotate', service: 'auth', access: ['ADMIN'] },
  // auth: the second factor
  { method: 'POST', path: '/auth/signIn/mfa', service: 'auth', access: 'public', body: true },
  {
    method: 'POST',
    path: '/auth/signIn/mfa/setup',
    service: 'auth',
    access: 'public',
    body: true,
    owner: 'the account of the sign-in whose mfaToken is given (enrolment it asked for)',
  },
  {
    method: 'POST',
    path: '/auth/signIn/mfa/confirm',
    service: 'auth',
    access: 'public',
    body: true,
    owner: 'the account of the sign-in whose mfaToken is given (enrolment it asked for)',
  },
  {
    method: 'POST',
    path: '/auth/mfa/setup',
    service: 'auth',
    access: ['PACIENT', ...STAFF],
    owner: 'the caller’s own account',
  },
  {
    method: 'POST',
    path: '/auth/mfa/confirm',
    service: 'auth',
    access: ['PACIENT', ...STAFF],
    body: true,
    owner: 'the caller’s own account',
  },
  // auth: the patient's rights
  {
    method: 'GET',
    path: '/users/me/export',
    service: 'auth',
    access: ['PACIENT'],
    query: ['format'],
    owner: 'the caller’s own data only',
  },
  {
    method: 'DELETE',
    path: '/users/me',
    service: 'auth',
    access: ['PACIENT'],
    body: true,
    owner: 'the caller’s own account only',
  },
  // auth: staff accounts, before /users/:id
  { method: 'GET', path: '/users/staff', service: 'auth', access: ['ADMIN'] },
  {
    method: 'GET',
    path: '/users/staff/names',
    service: 'auth',
    access: STAFF,
    owner: 'doctors and admins, names only',
  },
  { method: 'POST', path: '/users/staff', service: 'auth', access: ['ADMIN'], body: true },
  {
    method: 'POST',
    path: '/users/staff/:id/disable',
    service: 'auth',
    access: ['ADMIN'],
    owner: 'doctors, admins and the kiosk account only, never the caller’s own account',
  },
  {
    method: 'POST',
    path: '/users/staff/:id/enable',
    service: 'auth',
    access: ['ADMIN'],
    owner: 'doctors, admins and the kiosk account only',
  },
  { method: 'GET', path: '/users', service: 'auth', access: STAFF, query: [...PAGE, 'rol'] },
  { method: 'GET', path: '/users/pacients', service: 'auth', access: STAFF, query: PAGE },
  // The kiosk reads no one by e-mail or id: it proves who is in front of it (docs/product/kiosk.md#proof).
  {
    method: 'GET',
    path: '/users/fetch',
    service: 'auth',
    access: STAFF,
    query: ['email'],
    owner: 'patients only, never staff',
  },
  // auth: the kiosk (before /users/:id)
  {
    method: 'POST',
    path: '/users/onboarding/code',
    service: 'auth',
    access: ['SERVICE_ACCOUNT'],
    body: true,
    owner: 'e-mails the code to the account only; the same answer for any address',
  },
  {
    method: 'POST',
    path: '/users/onboarding/verify',
    service: 'auth',
    access: ['SERVICE_ACCOUNT'],
    body: true,
    owner: 'the patient whose e-mailed or booking code is given (else 403)',
  },
  {
    method: 'POST',
    path: '/users/onboarding',
    service: 'auth',
    access: ['SERVICE_ACCOUNT'],
    body: true,
    owner:
      'patients only, never staff; an update needs the account’s e-mailed code and fills only empty fields',
  },
  {
    method: 'GET',
    path: '/users/:id',
    service: 'auth',
    access: STAFF,
    owner: 'patients only, never staff',
  },
  // appointments
  { method: 'GET', path: '/dates/booked', service: 'appointments', access: 'public' },
  // one day as the calendar offers it: closed (holiday, closure) or its free slots
  { method: 'GET', path: '/dates/slots', service: 'appointments', access: 'public', query: ['day'] },
  { method: 'GET', path: '/dates/currentDate', service: 'appointments', access: ['PACIENT'], owner: 'self' },
  {
    method: 'GET',
    path: '/dates',
    service: 'appointments',
    access: STAFF,
    query: [...PAGE, 'sort', 'status'],
  },
  {
    method: 'GET',
    path: '/dates/id/:id',
    service: 'appointments',
    access: ['PACIENT', ...STAFF],
    owner: 'a patient only their own appointment (else 404)',
  },
  {
    method: 'GET',
    path: '/dates/userid/:id',
    service: 'appointments',
    access: ['PACIENT', ...STAFF],
    owner: 'a patient only self (else 404)',
  },
  {
    method: 'GET',
    path: '/dates/history/userid/:id',
    service: 'appointments',
    access: ['PACIENT', ...STAFF],
    owner: 'a patient only self (else 404)',
  },
  {
    method: 'POST',
    path: '/dates',
    service: 'appointments',
    access: ['PACIENT'],
    body: true,
    owner: 'books for the caller only',
  },
  { method: 'POST', path: '/dates/admin', service: 'appointments', access: STAFF, body: true },
  {
    method: 'POST',
    path: '/dates/service',
    service: 'appointments',
    access: ['SERVICE_ACCOUNT'],
    body: true,
    owner: 'the patient whose code is given (else 403)',
  },
  {
    method: 'POST',
    path: '/dates/code/verify',
    service: 'appointments',
    access: ['SERVICE_ACCOUNT'],
    body: true,
    owner: 'the patient whose active appointment carries the booking code (else 403)',
  },
  // appointments: the day at the centre (check-in, agenda)
  { method: 'GET', path: '/dates/agenda', service: 'appointments', access: STAFF, query: ['date'] },
  {
    method: 'POST',
    path: '/dates/checkin',
    service: 'appointments',
    access: ['SERVICE_ACCOUNT', ...STAFF],
    body: true,
    owner:
      'the patient’s appointment of now (check-in window), else 404; the kiosk only with the patient’s code (else 403)',
  },
  { method: 'POST', path: '/dates/checkin/:id', service: 'appointments', access: STAFF },
  { method: 'POST', path: '/dates/attended/:id', service: 'appointments', access: STAFF },
  { method: 'POST', path: '/dates/noshow/:id', service: 'appointments', access: STAFF },
  {
    method: 'POST',
    path: '/dates/service/now',
    service: 'appointments',
    access: ['SERVICE_ACCOUNT'],
    body: true,
    owner:
      'the patient whose code is given (else 403); replaces their later booked appointment with a walk-in',
  },
  // appointments: patients keep their slot (reschedule, waiting list)
  {
    method: 'POST',
    path: '/dates/reschedule',
    service: 'appointments',
    access: ['PACIENT'],
    body: true,
    owner: 'the caller’s own active appointment only',
  },
  { method: 'POST', path: '/dates/reschedule/:id', service: 'appointments', access: STAFF, body: true },
  {
    method: 'GET',
    path: '/dates/waitlist',
    service: 'appointments',
    access: ['PACIENT'],
    owner: 'the caller’s own entries only',
  },
  {
    method: 'POST',
    path: '/dates/waitlist',
    service: 'appointments',
    access: ['PACIENT'],
    body: true,
    owner: 'joins the caller only',
  },
  {
    method: 'DELETE',
    path: '/dates/waitlist/:day',
    service: 'appointments',
    access: ['PACIENT'],
    owner: 'the caller’s own entry only',
  },
  {
    method: 'GET',
    path: '/dates/offer/:token',
    service: 'appointments',
    access: ['PACIENT'],
    owner: 'the offer’s patient only (else 404)',
  },
  {
    method: 'POST',
    path: '/dates/offer/:token',
    service: 'appointments',
    access: ['PACIENT'],
    owner: 'the offer’s patient only (else 404)',
  },
  { method: 'DELETE', path: '/dates/delete/:id', service: 'appointments', access: ['ADMIN'] },
  { method: 'DELETE', path: '/dates/cancel/:id', service: 'appointments', access: STAFF },
  {
    method: 'DELETE',
    path: '/dates/:date',
    service: 'appointments',
    access: ['PACIENT'],
    owner: 'the caller’s own active appointment only',
  },
  // records
  { method: 'POST', path: '/records', service: 'records', access: STAFF, body: true },
  { method: 'GET', path: '/records', service: 'records', access: STAFF, query: PAGE },
  { method: 'GET', path: '/records/appointment/:id', service: 'records', access: STAFF },
  {
    method: 'GET',
    path: '/records/mine',
    service: 'records',
    access: ['PACIENT'],
    owner: 'the caller’s own records only',
  },
  { method: 'GET', path: '/records/:id', service: 'records', access: STAFF },
  { method: 'PUT', path: '/records/:id', service: 'records', access: STAFF, body: true },
  // rooms
  { method: 'GET', path: '/rooms', service: 'rooms', access: 'public' },
  {
    method: 'GET',
    path: '/room-calendar/reserved-dates',
    service: 'rooms',
    access: STAFF,
    query: ['room'],
  },
  { method: 'GET', path: '/room-calendar/mine', service: 'rooms', access: STAFF, owner: 'the caller’s own' },
  {
    method: 'GET',
    path: '/room-calendar/reservations',
    service: 'rooms',
    access: STAFF,
    query: ['room'],
  },
  {
    method: 'POST',
    path: '/room-calendar',
    service: 'rooms',
    access: STAFF,
    body: true,
    owner: 'a DOCTOR reserves for self only',
  },
  {
    method: 'DELETE',
    path: '/room-calendar/:id',
    service: 'rooms',
    access: STAFF,
    owner: 'the reservation’s doctor, or an ADMIN (else 403)',
  },
  // config
  { method: 'GET', path: '/config/view', service: 'config', access: STAFF, query: ['view', 'version'] },
  { method: 'PUT', path: '/config/view', service: 'config', access: ['ADMIN'], body: true, query: ['view'] },
  { method: 'GET', path: '/config/centre', service: 'config', access: 'public' },
  { method: 'PUT', path: '/config/centre', service: 'config', access: ['ADMIN'], body: true },
  // config: the centre's closures (local holidays, closed periods, shortened days)
  { method: 'PUT', path: '/config/centre/closures', service: 'config', access: ['ADMIN'], body: true },
  // audit (the access trail; append-only: no PUT, PATCH or DELETE exists)
  {
    method: 'GET',
    path: '/audit',
    service: 'audit',
    access: ['ADMIN'],
    query: [...AUDIT_FILTERS, 'page', 'limit'],
  },
  {
    method: 'GET',
    path: '/audit/mine',
    service: 'audit',
    access: ['PACIENT'],
    query: ['search', 'page', 'limit'],
    owner: 'entries about the caller only',
  },
  { method: 'GET', path: '/audit/export.csv', service: 'audit', access: ['ADMIN'], query: AUDIT_FILTERS },
  // reporting (the dashboard's figures, a read model fed by events)
  { method: 'GET', path: '/reports/summary', service: 'reporting', access: ['ADMIN'], query: ['from', 'to'] },
  // reporting: "Estado del sistema" (readiness, versions, queues, outbox lag, dead letters)
  { method: 'GET', path: '/system/status', service: 'reporting', access: ['ADMIN'] },
  { method: 'GET', path: '/system/dead-letters', service: 'reporting', access: ['ADMIN'], query: ['queue'] },
  {
    method: 'POST',
    path: '/system/dead-letters/:queue/:messageId/redeliver',
    service: 'reporting',
    access: ['ADMIN'],
    body: true,
    owner: 'a queue of the known list (else 404); once: a message already redelivered or discarded is 404',
  },
  {
    method: 'POST',
    path: '/system/dead-letters/:queue/:messageId/discard',
    service: 'reporting',
    access: ['ADMIN'],
    body: true,
    owner: 'a queue of the known list (else 404); a reason is required (400 on reason)',
  },
  // payments (card and Bizum through Redsys, desk payments, refunds, invoices)
  {
    method: 'POST',
    path: '/payments/checkout',
    service: 'payments',
    access: ['PACIENT'],
    body: true,
    owner: 'the caller’s own appointment',
  },
  // Verified by the gateway's signature only (form-encoded, as Redsys sends it).
  { method: 'POST', path: '/payments/notify', service: 'payments', access: 'public', body: true },
  {
    method: 'GET',
    path: '/payments/appointment/:appointmentId',
    service: 'payments',
    access: ['PACIENT', ...STAFF],
    owner: 'a PACIENT their own appointment only',
  },
  // The back office's lists: the payment state of up to 100 appointments in one call.
  {
    method: 'GET',
    path: '/payments/appointments',
    service: 'payments',
    access: STAFF,
    query: ['ids'],
  },
  { method: 'POST', path: '/payments/desk', service: 'payments', access: STAFF, body: true },
  { method: 'POST', path: '/payments/:paymentId/refund', service: 'payments', access: ['ADMIN'], body: true },
  { method: 'GET', path: '/payments/invoices/verify', service: 'payments', access: ['ADMIN'] },
  {
    method: 'GET',
    path: '/payments/invoices/export',
    service: 'payments',
    access: ['ADMIN'],
    query: ['from', 'to'],
  },
  {
    method: 'GET',
    path: '/payments/invoices/:number/pdf',
    service: 'payments',
    access: ['PACIENT', ...STAFF],
    owner: 'a PACIENT their own invoices only',
  },
] as const satisfies readonly ApiRoute[];

export const API_ROUTES: readonly ApiRoute[] = ROUTE_TABLE;
/** The table with its literal entries, for typing each service's handlers (server-kit's `tableRouter`). */
export type RouteTable = typeof ROUTE_TABLE;

/** The routes reachable without a session token, as `{method, pattern}` for the gateway's matcher. */
export const PUBLIC_API_ROUTES: readonly { method: ApiMethod; pattern: string }[] = API_ROUTES.filter(
  (route) => route.access === 'public',
).map((route) => ({ method: route.method, pattern: route.path }));

/** May a caller with this role (undefined: no token) call the route, as far as roles go? */
export function routeAllows(route: ApiRoute, role: Role | undefined): boolean {
  if (route.access === 'public') return true;
  return role !== undefined && route.access.includes(role);
}
