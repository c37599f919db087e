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
