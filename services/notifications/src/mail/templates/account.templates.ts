import { brandedEmail, type Email, type MailCentre } from './layout';

export function confirmationEmail(centre: MailCentre, name: string, link: string): Email {
  return brandedEmail(centre, {
    subject: 'Confirme su cuenta',
    greetingName: name,
    paragraphs: [
      `Gracias por registrarse en ${centre.brandName}. Ya puede reservar su cita; para activar su cuenta, confirme su correo electrónico.`,
      'Hágalo cuanto antes: una cita reservada desde una cuenta sin confirmar se libera si el correo sigue sin confirmar a tiempo.',
      'El enlace es válido durante 48 horas.',
    ],
    action: { label: 'Confirmar mi cuenta', url: link },
    footnote: 'Si usted no ha creado esta cuenta, ignore este mensaje.',
  });
}

export function passwordResetEmail(centre: MailCentre, name: string, link: string): Email {
  return brandedEmail(centre, {
    subject: 'Restablezca su contraseña',
    greetingName: name,
    paragraphs: [
      'Hemos recibido una solicitud para restablecer la contraseña de su cuenta.',
      'El enlace es válido durante 1 hora y solo puede usarse una vez.',
    ],
    action: { label: 'Crear una nueva contraseña', url: link },
    footnote: 'Si no lo ha solicitado usted, ignore este mensaje: su contraseña no cambiará.',
  });
}

/**
 * The kiosk's one-time code (docs/product/kiosk.md#proof): the person at the centre's kiosk asked
 * for it to prove the account is theirs. Not in the subject, which mail lists and logs show.
 */
export function onboardingCodeEmail(centre: MailCentre, name: string, code: string, minutes: number): Email {
  return brandedEmail(centre, {
    subject: 'Su código para el quiosco del centro',
    greetingName: name,
    paragraphs: [
      `Ha pedido en el quiosco de ${centre.brandName} un código para identificarse. Escríbalo en el quiosco para continuar.`,
      `El código es válido durante ${minutes} minutos.`,
    ],
    code: { label: 'Su código', value: code },
    footnote:
      'Si no está usted en el centro, ignore este mensaje: sin este código nadie puede usar su cuenta en el quiosco.',
  });
}
