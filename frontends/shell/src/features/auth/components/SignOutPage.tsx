import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { MESSAGES, showSuccess, useSession } from '@crm/web-kit';
import { signOut } from '../api/sign-out';

/** Blank page: ends the session on the server, forgets the token, then goes to "/". */
export default function SignOutPage() {
  const session = useSession();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current || session.status === 'loading') return;
    started.current = true;
    const hadSession = Boolean(session.token);
    void (async () => {
      if (hadSession) await signOut().catch(() => undefined);
      session.signOut();
      if (hadSession) void showSuccess(MESSAGES.signedOut.title, MESSAGES.signedOut.text);
      navigate('/', { replace: true });
    })();
  }, [session, navigate]);

  return <h1 className="wk-visually-hidden">Cerrando sesión…</h1>;
}
