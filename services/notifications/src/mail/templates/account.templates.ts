import { brandedEmail, type Email } from './layout';

export function confirmationEmail(name: string, link: string): Email {
  return brandedEmail({
    subject: 'Confirma tu cuenta',
    greetingName: name,
    paragraphs: [
      'Gracias por registrarte en nuestro centro. Para activar tu cuenta y poder reservar tu cita, confirma tu correo electrónico.',
      'El enlace es válido durante 48 horas.',
    ],
    action: { label: 'Confirmar mi cuenta', url: link },
    footnote: 'Si no has creado esta cuenta, ignora este mensaje.',
  });
}

export function passwordResetEmail(name: string, link: string): Email {
  return brandedEmail({
    subject: 'Restablece tu contraseña',
    greetingName: name,
    paragraphs: [
      'Hemos recibido una solicitud para restablecer la contraseña de tu cuenta.',
      'El enlace es válido durante 1 hora y solo puede usarse una vez.',
    ],
    action: { label: 'Crear una nueva contraseña', url: link },
    footnote: 'Si no lo has solicitado tú, ignora este mensaje: tu contraseña no cambiará.',
  });
}
