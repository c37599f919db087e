import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError, MESSAGES, showError, showServerError, showSuccess } from '@crm/web-kit';
import { confirmAccount } from '../api/confirm-account';

const ALREADY_ACTIVE = 'Account already activated';

/** Blank page: confirms the account on load, then goes to /dates whatever happened. */
export default function ConfirmAccountPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void confirmAccount(token).then(
      () => {
        navigate('/dates', { replace: true });
        void showSuccess(MESSAGES.accountConfirmed.title, MESSAGES.accountConfirmed.text);
      },
      (error: unknown) => {
        navigate('/dates', { replace: true });
        if (error instanceof ApiError && error.message === ALREADY_ACTIVE) {
          void showSuccess(MESSAGES.accountConfirmed.title, MESSAGES.accountConfirmed.text);
        } else if (error instanceof ApiError && !error.isServerFailure) {
          void showError('Error', error.errors[0]?.message ?? error.message);
        } else {
          void showServerError();
        }
      },
    );
  }, [token, navigate]);

  return <h1 className="wk-visually-hidden">Confirmando su cuenta…</h1>;
}
