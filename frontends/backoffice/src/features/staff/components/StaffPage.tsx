import { useState, type FormEvent } from 'react';
import type { StaffRole, StaffView } from '@crm/contracts';
import { confirmDialog, showRequestError, showSuccess, useServerForm, useSession } from '@crm/web-kit';
import { FormAlert, EmailField, FullNameField } from '@crm/web-kit/forms';
import { AlertNotice, PageHeader } from '@/components';
import { inviteStaff, setStaffDisabled, useStaff } from '../api/staff';
import './staff.css';

const FIELDS = ['name', 'email', 'rol'] as const;
const ROLE_LABELS: Record<string, string> = { DOCTOR: 'Médico/a', ADMIN: 'Administrador/a' };

const stateOf = (person: StaffView) =>
  person.disabled ? 'Desactivada' : person.invited ? 'Invitación pendiente' : 'Activa';

/**
 * "Personal" (ADMIN, docs/product/back-office.md#staff-accounts): invite doctors and admins by e-mail, see
 * who has set up the second factor, and disable an account (its sessions end at once) or enable it again.
 */
export default function StaffPage() {
  const { user } = useSession();
  const isAdmin = user?.rol === 'ADMIN';
  const { data, mutate } = useStaff(isAdmin);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [rol, setRol] = useState<StaffRole>('DOCTOR');
  const { errors, busy, run, fieldProps } = useServerForm(FIELDS);
  const [changing, setChanging] = useState<string | null>(null);

  if (!isAdmin)
    return (
      <section className="bo-page">
        <PageHeader title="Personal" />
        <AlertNotice>Solo los administradores pueden gestionar el personal.</AlertNotice>
      </section>
    );

  const invite = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await run(async () => {
      const invited = await inviteStaff({ name: name.trim(), email: email.trim(), rol });
      setName('');
      setEmail('');
      await mutate();
      void showSuccess('Invitación enviada', `${invited.name} recibirá un correo para crear su contraseña.`);
    });
  };

  const toggle = async (person: StaffView) => {
    const disabling = !person.disabled;
    if (
      disabling &&
      !(await confirmDialog({
        title: '¿Desactivar la cuenta?',
        text: `${person.name} no podrá entrar y sus sesiones abiertas se cerrarán ahora.`,
        icon: 'warning',
      }))
    )
      return;
    setChanging(person.id);
    try {
      await setStaffDisabled(person.id, disabling);
      await mutate();
    } catch (err) {
      void showRequestError(err);
    } finally {
      setChanging(null);
    }
  };

  return (
    <section className="bo-page bo-staff">
      <PageHeader title="Personal" />
      <form className="bo-staff__invite" onSubmit={invite} noValidate aria-labelledby="bo-staff-invite-title">
        <h2 id="bo-staff-invite-title">Invitar a una persona</h2>
        <FormAlert message={errors.general} />
        <div className="bo-staff__fields">
          <FullNameField
            label="Nombre"
            autoComplete="off"
            value={name}
            onValueChange={setName}
            {...fieldProps('name')}
          />
          <EmailField autoComplete="off" value={email} onValueChange={setEmail} {...fieldProps('email')} />
          <div className="wk-field">
            <label className="wk-label" htmlFor="bo-staff-rol">
              Rol
            </label>
            <select
              id="bo-staff-rol"
              className="wk-input"
              value={rol}
              onChange={(e) => setRol(e.target.value as StaffRole)}
            >
              <option value="DOCTOR">Médico/a</option>
              <option value="ADMIN">Administrador/a</option>
            </select>
            <p className="wk-error-line">{errors.fields.rol ?? ''}</p>
          </div>
        </div>
        <button type="submit" className="wk-button" disabled={busy}>
          Enviar invitación
        </button>
      </form>

      <div className="bo-staff__table-wrap">
        <table className="bo-staff__table">
          <thead>
            <tr>
              <th scope="col">Nombre</th>
              <th scope="col">Correo Electrónico</th>
              <th scope="col">Rol</th>
              <th scope="col">Estado</th>
              <th scope="col">Dos pasos</th>
              <th scope="col">
                <span className="bo-visually-hidden">Acciones</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(data?.staff ?? []).map((person) => (
              <tr key={person.id} data-testid="staff-row">
                <td>{person.name}</td>
                <td className="bo-staff__email">{person.email}</td>
                <td>{ROLE_LABELS[person.rol] ?? person.rol}</td>
                <td>{stateOf(person)}</td>
                <td>{person.mfaEnabled ? 'Sí' : 'No'}</td>
                <td>
                  {person.id === user?.id ? null : (
                    <button
                      type="button"
                      className={
                        person.disabled ? 'wk-button wk-button--secondary' : 'wk-button wk-button--danger'
                      }
                      disabled={changing === person.id}
                      onClick={() => void toggle(person)}
                    >
                      {person.disabled ? 'Activar' : 'Desactivar'}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
