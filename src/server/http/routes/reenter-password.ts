// Re-enter password (section 4.2): whether the session's password entry is still recent, and
// entering it again. Both keep the re-enter-password cookie in step with the server's answer, so
// the portal's modal closes when the server says the password has not expired.
import type { FastifyInstance } from 'fastify';
import { sessionCalls as calls } from '../../../contract/session';
import { refuse } from '../../domain/errors';
import { clearReenterPasswordCookie, setReenterPasswordCookie } from '../device-cookies';
import { registerCall } from '../route';

export async function reenterPasswordRoutes(app: FastifyInstance): Promise<void> {
  const { config, clock, factors } = app.services;
  const reenter = factors.reenterPassword;

  // The portal's modal polls this while it waits: the poll is not the user, and must not keep an
  // unattended session from its idle timeout.
  registerCall(
    app,
    calls.getReenterPasswordExpired,
    { access: 'authenticated', touchesSession: false },
    async ({ session, reply }) => {
      if (!session) throw refuse.sessionExpired();
      if (reenter.isExpired(session)) {
        clearReenterPasswordCookie(reply, config, session);
        return true;
      }
      setReenterPasswordCookie(reply, config, session, reenter.expiresAt(session), clock.now());
      return false;
    },
  );

  registerCall(app, calls.reenterPassword, { access: 'authenticated' }, async ({ session, body, reply }) => {
    if (!session) throw refuse.sessionExpired();
    const expiresAt = await reenter.confirm(session, body.currentPassword);
    setReenterPasswordCookie(reply, config, session, expiresAt, clock.now());
    return null;
  });
}
