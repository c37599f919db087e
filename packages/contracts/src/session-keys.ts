/**
 * Redis keys through which the auth service tells the gateway about ended sessions:
 * a signed-out token id, and the instant before which a user's tokens no longer count
 * (set on password reset). Both expire with the longest token lifetime.
 */
export const sessionKeys = {
  revokedToken: (tokenId: string) => `auth:revoked:${tokenId}`,
  validAfter: (userId: string) => `auth:valid-after:${userId}`,
  /**
   * Pub/sub channel on which the auth service announces each ended session right after writing its
   * key, so that a gateway that remembers recent answers forgets them at once. The message says which
   * fact changed (`{"tokenId"}` or `{"userId","validAfter"}`); a gateway may simply forget everything.
   */
  endedChannel: 'auth:sessions-ended',
};

/** The gateway's 401 message for a staff session left idle too long (the front ends say so in a dialog). */
export const IDLE_SESSION_MESSAGE = 'Sesión cerrada por inactividad';
