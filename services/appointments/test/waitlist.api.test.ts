import moment from 'moment-timezone';
import { CENTRE_TIME_ZONE } from '@crm/contracts';
import { slotAllocator } from '../../../test-support/slots';
import type { Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { appointmentsTestStack, type StaffTokens, type TestPatient } from './support/people';
import { nextLocalDay } from './support/slots';

/**
 * The waiting list (docs/product/patient-area.md#waiting-list): one entry per patient and day; a freed slot
 * of the day is held for the first in line and offered by e-mail; the link books it (or moves the patient's
 * appointment there); unclaimed, it goes to the next; a held slot is never offered or booked by anyone else.
 */
const dayOf = (instant: string) => moment.tz(instant, CENTRE_TIME_ZONE).format('YYYY-MM-DD');
let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];
const allSlots = slotAllocator(9);
const usedDays = new Set<string>();
/** `count` slots of a day no other test uses (each day has its own waiting line). */
function slotsOfFreshDay(count: number): string[] {
  for (;;) {
    const first = allSlots.next();
    if (usedDays.has(dayOf(first))) continue;
    usedDays.add(dayOf(first));
    return [first, ...Array.from({ length: count - 1 }, () => allSlots.next())];
  }
}
const service = () => stack.components.appointments!.handle as AppointmentsService;
let next = 0;
const patient = () => patients[next++]!;

appointmentsTestStack('waitlist', 20, (started) => ({ stack, staff, patients } = started));

const join = (who: TestPatient, day: string) => stack.api.post('/dates/waitlist', { day }, who.token);
const entriesOf = async (who: TestPatient) =>
  (await stack.api.get('/dates/waitlist', who.token)).body.entries;
const book = async (who: TestPatient, date: string) => {
  const response = await stack.api.post('/dates', { date }, who.token);
  expect(response.status).toBe(201);
  return response.body.id as string;
};
const cancelOwn = async (who: TestPatient, date: string) =>
  expect((await stack.api.delete(`/dates/${encodeURIComponent(date)}`, who.token)).status).toBe(200);

/** The offer e-mail's token (the link `/dates/offer/<token>`), once it has arrived. */
async function offerTokenOf(who: TestPatient, count = 1): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const offers = (await stack.mail.messagesTo(who.email)).filter((m) =>
      m.Subject.startsWith('Hueco libre'),
    );
    if (offers.length >= count) {
      const mail = await stack.mail.message(offers[0]!.ID);
      const token = /\/dates\/offer\/([A-Za-z0-9_-]+)/.exec(mail.Text)?.[1];
      if (!token) throw new Error(`no offer link in: ${mail.Text}`);
      return token;
    }
    if (Date.now() > deadline) throw new Error(`no offer e-mail to ${who.email}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
const offersTo = async (who: TestPatient) =>
  (await stack.mail.messagesTo(who.email)).filter((m) => m.Subject.startsWith('Hueco libre')).length;

describe('joining and leaving: POST/GET /dates/waitlist, DELETE /dates/waitlist/:day', () => {
  it('keeps one entry per patient and day, in the order they joined', async () => {
    const [first, second] = [patient(), patient()];
    const day = nextLocalDay(3, 3);
    const joined = await join(first, day);
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ day, position: 1 });
    expect((await join(first, day)).status).toBe(200);
    expect((await join(second, day)).body).toMatchObject({ day, position: 2 });
    expect(await entriesOf(first)).toEqual([expect.objectContaining({ day, position: 1 })]);

    const left = await stack.api.delete(`/dates/waitlist/${day}`, first.token);
    expect(left.status).toBe(200);
    expect(await entriesOf(first)).toEqual([]);
    expect(await entriesOf(second)).toEqual([expect.objectContaining({ day, position: 1 })]);
    const again = await stack.api.delete(`/dates/waitlist/${day}`, first.token);
    expect(again.status).toBe(404);
    expect(again.body.errors).toEqual([
      { field: 'day', message: 'No está en la lista de espera de ese día' },
    ]);
  });

  it('refuses days gone by, days the centre is closed, malformed days and callers who are not patients', async () => {
    const who = patient();
    const refusal = async (body: unknown, token = who.token) => {
      const response = await stack.api.post('/dates/waitlist', body, token);
      return {
        status: response.status,
        field: response.body.errors?.[0]?.field,
        message: response.body.message,
      };
    };
    expect(await refusal({ day: '2020-01-06' })).toMatchObject({
      status: 400,
      field: 'day',
      message: 'Ese día ya ha pasado',
    });
    expect(await refusal({ day: nextLocalDay(6) })).toMatchObject({ status: 400, field: 'day' });
    expect(await refusal({ day: '2030-02-30' })).toMatchObject({ status: 400, field: 'day' });
    expect(await refusal({})).toMatchObject({ status: 400, field: 'day' });
    expect((await refusal({ day: nextLocalDay(2) }, staff.DOCTOR)).status).toBe(403);
    expect((await stack.api.get('/dates/waitlist')).status).toBe(401);
  });
});

describe('offers: a freed slot held for the first in line, claimed through the e-mailed link', () => {
  it('offers a cancelled slot to the first in line only; nobody else books or claims it; the link books it once', async () => {
    const [holder, first, second, outsider] = [patient(), patient(), patient(), patient()];
    const [slot] = slotsOfFreshDay(1) as [string];
    await book(holder, slot);
    await join(first, dayOf(slot));
    await join(second, dayOf(slot));
    await cancelOwn(holder, slot);

    const token = await offerTokenOf(first);
    const [entry] = await entriesOf(first);
    expect(entry).toMatchObject({ day: dayOf(slot), offer: { date: slot } });
    expect(Date.parse(entry.offer.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    // Held: shown as taken, and neither a booking nor another patient's claim gets it.
    expect((await stack.api.get<string[]>('/dates/booked')).body).toContain(slot);
    expect((await stack.api.post('/dates', { date: slot }, outsider.token)).status).toBe(409);
    expect((await stack.api.post(`/dates/offer/${token}`, {}, second.token)).status).toBe(404);
    expect((await stack.api.get(`/dates/offer/${token}`, first.token)).body).toMatchObject({ date: slot });
    expect(await offersTo(second)).toBe(0);

    // The link's owner claims it, twice at once: one booking.
    const claims = await Promise.all(
      [1, 2, 3].map(() => stack.api.post(`/dates/offer/${token}`, {}, first.token)),
    );
    expect(claims.map((c) => c.status).sort()).toEqual([201, 404, 404]);
    const bookedNow = claims.find((c) => c.status === 201)!.body;
    expect(bookedNow).toMatchObject({ date: slot, status: 'booked', pacientId: first.id });
    expect(await entriesOf(first)).toEqual([]);
    const mails = await stack.mail.waitForMessagesTo(first.email, 1);
    expect(mails.length).toBeGreaterThan(0);
    await expect(
      (async () => {
        for (let i = 0; i < 50; i++) {
          const all = await stack.mail.messagesTo(first.email);
          if (all.some((m) => m.Subject.startsWith('Cita confirmada'))) return true;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        return false;
      })(),
    ).resolves.toBe(true);
    expect((await stack.api.get(`/dates/offer/${token}`, first.token)).status).toBe(404);
  });

  it('offers the slot to a patient who joined before auth’s news about them arrived', async () => {
    const [holder, newcomer] = [patient(), patient()];
    const [slot] = slotsOfFreshDay(1) as [string];
    await book(holder, slot);
    // As if auth's event about the newcomer were still on its way: the read model does not know them.
    await service().models.Patient.deleteOne({ _id: newcomer.id });
    expect((await join(newcomer, dayOf(slot))).status).toBe(201);
    await cancelOwn(holder, slot);

    await offerTokenOf(newcomer);
    const [entry] = await entriesOf(newcomer);
    expect(entry).toMatchObject({ day: dayOf(slot), offer: { date: slot } });
  });

  it('passes an unclaimed offer to the next in line, and never offers one slot twice to one patient', async () => {
    const [holder, first, second] = [patient(), patient(), patient()];
    const [slot] = slotsOfFreshDay(1) as [string];
    await book(holder, slot);
    await join(first, dayOf(slot));
    await join(second, dayOf(slot));
    await cancelOwn(holder, slot);
    const firstToken = await offerTokenOf(first);

    // Its 15 minutes are over (written in the past, as no call can), and the sweep runs.
    const expire = () =>
      service().models.Appointment.updateOne(
        { kind: 'offer', slotKey: slot },
        { $set: { offerExpiresAt: new Date(Date.now() - 60_000) } },
      );
    await expire();
    expect(await service().waitlist.sweep()).toMatchObject({ expired: 1, reoffered: 1 });
    const secondToken = await offerTokenOf(second);
    expect((await stack.api.post(`/dates/offer/${firstToken}`, {}, first.token)).status).toBe(404);
    expect((await stack.api.get(`/dates/offer/${secondToken}`, second.token)).body).toMatchObject({
      date: slot,
    });

    // The second lets it go too: the first was offered it already, so the slot is simply free.
    await expire();
    expect(await service().waitlist.sweep()).toMatchObject({ expired: 1, reoffered: 0 });
    expect((await stack.api.get<string[]>('/dates/booked')).body).not.toContain(slot);
    expect(await offersTo(first)).toBe(1);
  });

  it('moves the claimer’s appointment to the offered slot in one step', async () => {
    const [holder, waiting] = [patient(), patient()];
    const [wanted] = slotsOfFreshDay(1) as [string];
    const [later] = slotsOfFreshDay(1) as [string];
    const oldId = await book(waiting, later);
    await book(holder, wanted);
    await join(waiting, dayOf(wanted));
    await cancelOwn(holder, wanted);
    const token = await offerTokenOf(waiting);

    const claimed = await stack.api.post(`/dates/offer/${token}`, {}, waiting.token);
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({ date: wanted, rescheduledFrom: { id: oldId, date: later } });
    const old = (await stack.api.get(`/dates/id/${oldId}`, staff.DOCTOR)).body;
    expect(old).toMatchObject({ status: 'cancelled', rescheduledTo: claimed.body.id });
    const active = (await stack.api.get(`/dates/userid/${waiting.id}`, staff.DOCTOR)).body.appointment;
    expect(active).toEqual([expect.objectContaining({ id: claimed.body.id, date: wanted })]);
  });

  it('offers slots freed by a deletion and by a reschedule away, but not by a no-show', async () => {
    const [deleted, moved, first, second] = [patient(), patient(), patient(), patient()];
    const [a] = slotsOfFreshDay(1) as [string];
    const [b, elsewhere] = slotsOfFreshDay(2) as [string, string];
    const deletedId = await book(deleted, a);
    const movedId = await book(moved, b);
    await join(first, dayOf(a));
    await join(second, dayOf(b));
    expect((await stack.api.delete(`/dates/delete/${deletedId}`, staff.ADMIN)).status).toBe(200);
    expect(
      (await stack.api.post(`/dates/reschedule/${movedId}`, { date: elsewhere }, staff.DOCTOR)).status,
    ).toBe(200);
    await offerTokenOf(first);
    await offerTokenOf(second);
    const offered = await service()
      .models.Appointment.find({ kind: 'offer', slotKey: { $in: [a, b] } })
      .lean();
    expect(offered.map((o) => [o.slotKey, o.pacientId]).sort()).toEqual(
      [
        [a, first.id],
        [b, second.id],
      ].sort(),
    );
  });

  it('shows the patient the slot held for them, then, once the hold has ended (clock moved on), tells them by e-mail and shows it as missed instead of "le avisaremos"', async () => {
    const [holder, waiting] = [patient(), patient()];
    const [slot] = slotsOfFreshDay(1) as [string];
    await book(holder, slot);
    await join(waiting, dayOf(slot));
    await cancelOwn(holder, slot);
    await offerTokenOf(waiting);
    const [held] = await entriesOf(waiting);
    expect(held).toMatchObject({ day: dayOf(slot), position: 1, offer: { date: slot } });
    expect(held).not.toHaveProperty('missedOffers');

    // Ten seconds after the hold's end, before any sweep: no longer held, already missed.
    const later = service().waitlistAt(() => new Date(Date.parse(held.offer.expiresAt) + 10_000));
    const [ended] = await later.entriesOf({ id: waiting.id, rol: 'PACIENT' });
    expect(ended).not.toHaveProperty('offer');
    expect(ended!.missedOffers).toEqual([held.offer]);

    // The sweep of that moment ends it and tells the patient, once.
    // (Other tests' offers still held end by that clock too.)
    expect((await later.sweep()).expired).toBeGreaterThanOrEqual(1);
    expect(await later.sweep()).toMatchObject({ expired: 0 });
    expect((await stack.api.get<string[]>('/dates/booked')).body).not.toContain(slot);
    const mails = await stack.mail.waitForMessagesTo(waiting.email, 2);
    const notice = mails.filter((mail) => mail.Subject.startsWith('Hueco no reservado'));
    expect(notice).toHaveLength(1);
    const text = (await stack.mail.message(notice[0]!.ID)).Text;
    expect(text).toContain('no se reservó a tiempo');
    expect(text).toContain('No se le volverá a ofrecer');
    const [after] = await entriesOf(waiting);
    expect(after).toMatchObject({ position: 1, missedOffers: [held.offer] });
    expect(after).not.toHaveProperty('offer');
  });
});
