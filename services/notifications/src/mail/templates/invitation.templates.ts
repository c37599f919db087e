import { brandedEmail, type Email, type MailCentre } from './layout';

/**
 * The invitation of a patient registered by the centre's staff or at the kiosk, who has no password
 * yet: the link (the reset-password page) sets one, confirms the address and opens their area.
 */
export function invitationEmail(
  centre: MailCentre,
  name: string,
  link: string,
  channel: 'staff' | 'kiosk' | 'staffAccount',
  validDays: number,
  rol?: string,
  /** The role must set up a second factor at the first sign-in; otherwise none is announced. */
  mfaRequired = false,
): Email {
  const validity = `El enlace es válido durante ${validDays === 1 ? '1 día' : `${validDays} días`} y solo puede usarse una vez. Si caduca, use «¿Olvidó su contraseña?» en la página de acceso.`;
  if (channel === 'staffAccount')
    return brandedEmail(centre, {
      subject: `Cree su contraseña para la gestión de ${centre.brandName}`,
      greetingName: name,
      paragraphs: [
        `Le han dado de alta en la gestión de ${centre.brandName} como ${rol === 'ADMIN' ? 'administrador/a' : 'médico/a'}.`,
        mfaRequired
          ? 'Cree su contraseña con el botón siguiente. Al entrar por primera vez se le pedirá que configure la verificación en dos pasos con una aplicación de autenticación en su móvil.'
          : 'Cree su contraseña con el botón siguiente; después podrá entrar en la gestión con su correo electrónico y esa contraseña.',
        validity,
      ],
      action: { label: 'Crear mi contraseña', url: link },
      footnote: 'Si no esperaba este mensaje, avise a la administración del centro.',
    });
  return brandedEmail(centre, {
    subject: 'Cree su contraseña para acceder a su área de paciente',
    greetingName: name,
    paragraphs: [
      channel === 'kiosk'
        ? `Se ha registrado como paciente en el terminal de recepción de ${centre.brandName}.`
        : `El personal de ${centre.brandName} le ha registrado como paciente.`,
      'Para consultar o cancelar su cita en línea, cree su contraseña con el botón siguiente; después podrá entrar en su área de paciente con su correo electrónico y esa contraseña.',
      validity,
    ],
    action: { label: 'Crear mi contraseña', url: link },
    footnote: 'Si usted no ha estado en nuestro centro, ignore este mensaje.',
  });
}
