import { arrivalDate, heldAppointmentIn, planForHeld } from './arrival';

const held = {
  id: '6561f0c2a1b2c3d4e5f60718',
  date: '2026-12-12T10:00:00.000Z',
  status: 'booked',
  today: false,
  checkInOpen: false,
};

describe('heldAppointmentIn', () => {
  it('reads the appointment a 409 carries', () => {
    expect(heldAppointmentIn(409, { message: 'x', errors: [], appointment: held })).toEqual(held);
  });

  it('ignores other statuses, bodies without an appointment and malformed ones', () => {
    expect(heldAppointmentIn(400, { appointment: held })).toBeUndefined();
    expect(heldAppointmentIn(409, { message: 'El paciente ya tiene una cita reservada' })).toBeUndefined();
    expect(heldAppointmentIn(409, undefined)).toBeUndefined();
    expect(heldAppointmentIn(409, 'text')).toBeUndefined();
    expect(heldAppointmentIn(409, { appointment: { ...held, date: 'mañana' } })).toBeUndefined();
    expect(heldAppointmentIn(409, { appointment: { ...held, status: 'cancelled' } })).toBeUndefined();
    expect(heldAppointmentIn(409, { appointment: { ...held, id: 7 } })).toBeUndefined();
  });

  it('reads missing flags as false', () => {
    const { today: _today, checkInOpen: _open, ...bare } = held;
    expect(heldAppointmentIn(409, { appointment: bare })).toEqual({
      ...bare,
      today: false,
      checkInOpen: false,
    });
  });
});

describe('planForHeld', () => {
  it('does nothing more for a patient already checked in', () => {
    expect(planForHeld({ ...held, status: 'checkedIn', today: true })).toBe('registered');
  });

  it('checks in an appointment whose window is open', () => {
    expect(planForHeld({ ...held, status: 'booked', today: true, checkInOpen: true })).toBe('checkIn');
  });

  it('offers "be seen now" for another day, or later today before the window opens', () => {
    expect(planForHeld({ ...held, status: 'booked' })).toBe('offer');
    expect(planForHeld({ ...held, status: 'booked', today: true })).toBe('offer');
  });
});

describe('arrivalDate', () => {
  it('takes the first well-formed date, the check-in answer before the booking one', () => {
    expect(arrivalDate({ date: '2026-12-12T10:01:00.000Z' }, { date: '2026-12-12T10:00:00.000Z' })).toBe(
      '2026-12-12T10:01:00.000Z',
    );
    expect(arrivalDate(undefined, { date: '2026-12-12T10:00:00.000Z' })).toBe('2026-12-12T10:00:00.000Z');
    expect(arrivalDate({}, { date: 'not a date' }, null)).toBeUndefined();
  });
});
