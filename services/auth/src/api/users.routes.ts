import type { Request } from 'express';
import { z } from 'zod';
import {
  fetchByEmailQuery,
  objectIdField,
  onboardingBody,
  onboardingCodeBody,
  onboardingVerifyBody,
  pageQuery,
  type OnboardingAnswer,
  type OnboardingCodeSent,
  type OnboardingProof,
  ROLES,
  type PacientsPage,
  type UsersPage,
  paged,
} from '@crm/contracts';
import {
  bearerToken,
  forbidden,
  unauthorized,
  validate,
  validated,
  type RouteHandlers,
} from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { AccountService } from '../domain/account.service';
import { CODE_SENT_MESSAGE, type KioskService } from '../domain/kiosk.service';
import { toUserView } from '../domain/user';

/** The kiosk's own token, to ask the appointments service about a booking code with it. */
function callerWithToken(req: Request): { bearerToken: string } {
  const token = bearerToken(req.headers.authorization);
  if (!token) throw unauthorized();
  return { bearerToken: token };
}

/** The patients among listed people, for the access trail (staff accounts are not patients). */
const patientIdsOf = (people: readonly { _id: string; rol: string }[]) =>
  people.filter((person) => person.rol === 'PACIENT').map((person) => person._id);

/** `includeErased=true` also lists erased accounts ("Paciente eliminado"), left out by default. */
const erasedFilter = {
  includeErased: z
    .enum(['true', 'false'], { error: 'includeErased debe ser true o false' })
    .default('false')
    .transform((value) => value === 'true'),
};
const patientsQuery = pageQuery.extend(erasedFilter);

/** `GET /users` lists patients unless `rol` asks for another role (staff screens only show patients). */
const usersQuery = pageQuery.extend({ rol: z.enum(ROLES).default('PACIENT'), ...erasedFilter });

const idParam = z.object({ id: objectIdField });

/**
 * `/users*` calls: back-office lists and lookups (DOCTOR, ADMIN) and the kiosk's codes and save
 * (SERVICE_ACCOUNT, docs/product/kiosk.md#proof), roles from the route table. Every one reads or changes patients' data, so each
 * is recorded in the access trail (naming the patients listed) before it answers: a read that could
 * not be recorded is not served.
 */
export function usersHandlers(accounts: AccountService, kiosk: KioskService, trail: AuditTrail) {
  /** A list names every patient shown; a read or change names its one patient. */
  const recordList = (req: Request, people: readonly { _id: string; rol: string }[]) =>
    trail.recordRequest(req, { action: 'user.list', resource: 'user', patientIds: patientIdsOf(people) });
  const recordOne = (req: Request, action: string, patientId: string) =>
    trail.recordRequest(req, { action, resource: 'user', resourceId: patientId, patientIds: [patientId] });

  return {
    'GET /users': [
      validate('query', usersQuery),
      async (req, res) => {
        const { page, limit, search, rol, includeErased } = validated(res, 'query', usersQuery);
        // Doctors work with patients; which staff and service accounts exist is the admin's business.
        if (rol !== 'PACIENT' && req.user?.rol !== 'ADMIN') {
          throw forbidden('Solo un administrador puede listar cuentas que no son de pacientes');
        }
        const { items, total } = await accounts.listUsers({
          page,
          limit,
          search,
          roles: [rol],
          includeErased,
        });
        await recordList(req, items);
        const body: UsersPage = { users: items, ...paged(total, page, limit) };
        res.json(body);
      },
    ],
    /** The back office's paged patient list (its path is documented in the README). */
    'GET /users/pacients': [
      validate('query', patientsQuery),
      async (req, res) => {
        const { page, limit, search, includeErased } = validated(res, 'query', patientsQuery);
        const { items, total } = await accounts.listUsers({
          page,
          limit,
          search,
          roles: ['PACIENT'],
          includeErased,
        });
        await recordList(req, items);
        const body: PacientsPage = { pacients: items, ...paged(total, page, limit) };
        res.json(body);
      },
    ],
    'GET /users/fetch': [
      validate('query', fetchByEmailQuery),
      async (req, res) => {
        const patient = await accounts.findPatientByEmail(validated(res, 'query', fetchByEmailQuery).email);
        await recordOne(req, 'user.read', patient.id);
        res.json({ data: toUserView(patient) });
      },
    ],
    /** One patient by id, for services that need a patient their read model has not seen yet. */
    'GET /users/:id': [
      validate('params', idParam),
      async (req, res) => {
        const patient = await accounts.findPatientById(validated(res, 'params', idParam).id);
        await recordOne(req, 'user.read', patient.id);
        res.json({ data: toUserView(patient) });
      },
    ],
    'POST /users/onboarding': [
      validate('body', onboardingBody),
      async (req, res) => {
        const input = validated(res, 'body', onboardingBody);
        const { patient, code } = await kiosk.onboard(input, callerWithToken(req));
        await recordOne(req, input.operation === 'create' ? 'user.create' : 'user.update', patient.id);
        const body: OnboardingAnswer = { data: patient, ...(code ? { code } : {}) };
        res.status(input.operation === 'create' ? 201 : 200).json(body);
      },
    ],
    /** The same answer for any address: whether it has an account is not the kiosk's to learn here. */
    'POST /users/onboarding/code': [
      validate('body', onboardingCodeBody),
      async (req, res) => {
        await kiosk.requestCode(validated(res, 'body', onboardingCodeBody).email);
        const body: OnboardingCodeSent = { message: CODE_SENT_MESSAGE };
        res.status(202).json(body);
      },
    ],
    'POST /users/onboarding/verify': [
      validate('body', onboardingVerifyBody),
      async (req, res) => {
        const { email, pacientId: patientId, code } = validated(res, 'body', onboardingVerifyBody);
        const { patientId: proven, ...proof } = await kiosk.verify(
          email !== undefined ? { email } : { patientId: patientId! },
          code,
          callerWithToken(req),
        );
        await recordOne(req, 'user.read', proven);
        const body: OnboardingProof = { pacientId: proven, ...proof };
        res.json(body);
      },
    ],
  } satisfies Partial<RouteHandlers<'auth'>>;
}
