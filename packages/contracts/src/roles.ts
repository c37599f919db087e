/** Roles exactly as the wire spells them (`rol` on the wire; docs/product/README.md#wire-names). */
export const ROLES = ['PACIENT', 'DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'] as const;
export type Role = (typeof ROLES)[number];

/** Roles that work the back office. */
export const STAFF_ROLES: readonly Role[] = ['DOCTOR', 'ADMIN'];
