import type { Room } from './room';

/**
 * The centre's consulting rooms, created at start-up when missing. Existing rooms are left as they
 * are, so an operator's change in the database (e.g. `active: false` during a repair) survives restarts.
 */
export const CONSULTING_ROOMS: readonly Room[] = [
  {
    id: 'consulta-1',
    name: 'Consulta 1 — Medicina general',
    floor: 0,
    equipment: ['Camilla', 'Tensiómetro', 'Báscula y tallímetro', 'Electrocardiógrafo'],
    description: 'Exploración física general y toma de constantes.',
    active: true,
  },
  {
    id: 'consulta-2',
    name: 'Consulta 2 — Oftalmología',
    floor: 0,
    equipment: ['Optotipos', 'Test de visión cromática', 'Campímetro'],
    description: 'Agudeza visual, visión de colores y campo visual.',
    active: true,
  },
  {
    id: 'consulta-3',
    name: 'Consulta 3 — Audiometría',
    floor: 1,
    equipment: ['Cabina insonorizada', 'Audiómetro'],
    description: 'Pruebas de audición en cabina.',
    active: true,
  },
  {
    id: 'consulta-4',
    name: 'Consulta 4 — Psicotécnico',
    floor: 1,
    equipment: ['Equipo de coordinación visomotora', 'Test de tiempos de reacción'],
    description: 'Pruebas psicotécnicas de conductores, armas y embarcaciones.',
    active: true,
  },
];
