import { brandedEmail, type Email, type MailCentre } from './layout';

/** Someone who knew the password typed too many wrong codes: the holder should change it. */
export function secondFactorLockedEmail(
  centre: MailCentre,
  name: string,
  failures: number,
  lockedUntil: Date,
): Email {
  const until = lockedUntil.toLocaleTimeString('es-ES', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/Madrid',
  });
  return brandedEmail(centre, {
    subject: 'Hemos bloqueado la verificación en dos pasos de su cuenta',
    greetingName: name,
    paragraphs: [
      `Se han introducido ${failures} códigos de verificación incorrectos seguidos al entrar en su cuenta de ${centre.brandName}. Para protegerla, la verificación en dos pasos queda bloqueada hasta las ${until}.`,
      'Para llegar a ese paso hace falta su contraseña. Si no ha sido usted, cambie su contraseña cuanto antes con «¿Olvidó su contraseña?» en la página de acceso y avise a la administración del centro.',
    ],
    footnote: 'Si ha sido usted, espere a que termine el bloqueo y compruebe la hora de su móvil.',
  });
}
