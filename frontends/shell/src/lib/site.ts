/** The centre's public details, shown in the header, the contact section and the legal pages. */
export const SITE = {
  title: 'Reconocimientos Triana',
  subtitle: 'Centro de Reconocimiento Médico',
  phoneDisplay: '+34 928 123 456',
  phoneHref: 'tel:+34928123456',
  address: 'Calle Mayor de Triana 24, 35002 Las Palmas de Gran Canaria',
  mapsUrl:
    'https://www.google.com/maps/search/?api=1&query=' +
    encodeURIComponent('Calle Mayor de Triana 24, 35002 Las Palmas de Gran Canaria'),
  email: 'citas@reconocimientostriana.es',
  holder: 'Reconocimientos Triana, S.L.',
  taxId: 'B00000000',
  registry: 'Registro Mercantil de Las Palmas',
} as const;
