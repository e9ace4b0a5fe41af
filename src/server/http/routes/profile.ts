// Profile self-service calls of section 7, and `current-user/single-logout` (sign out of all
// devices). All need an authenticated session; the rules live in domain/profile/service.ts.
import type { FastifyInstance } from 'fastify';
import { profileCalls as calls } from '../../../contract/profile';
import { sessionCalls } from '../../../contract/session';
import { refuse } from '../../domain/errors';
import type { ProfileUpdate } from '../../domain/profile/service';
import { SALARY_STAFF_ONLY_MESSAGE } from '../../domain/profile/messages';
import type { RenewedToken, SessionRow } from '../../domain/sessions';
import { clearDeviceCookie, clearReenterPasswordCookie, setReenterPasswordCookie } from '../device-cookies';
import { registerCall, type CallContext } from '../route';
import { clearSessionCookie, rememberSession, setSessionCookie } from '../session-cookie';
import { auditEvent, shortHash } from '../../observability/context';

type Ctx = CallContext<unknown, unknown, unknown>;

const authenticated = { access: 'authenticated' } as const;

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const { config, profile, factors, clock } = app.services;
  profile.reportNoticeFailure = (error) =>
    app.log.warn({ err: error }, 'A profile change notice could not be sent');

  const sessionOf = (ctx: Ctx): SessionRow => {
    if (!ctx.session?.identityId) throw refuse.sessionExpired();
    return ctx.session;
  };

  /**
   * Every call here that takes the current password has checked it before changing anything, and
   * so made the session's password entry recent again (ReenterPasswordService.confirm): the
   * re-enter-password cookie, which tells the portal when to ask for the password, says so too.
   * Otherwise it kept the time of the last sign-in or re-entry, and 'Re-enter password' opened
   * minutes after the password was typed, until the portal's next check closed it.
   */
  const register: typeof registerCall = (scope, call, options, handler) =>
    registerCall(scope, call, options, async (ctx) => {
      const result = await handler(ctx);
      const body = ctx.body as { currentPassword?: unknown } | undefined;
      if (ctx.session && typeof body?.currentPassword === 'string') {
        const now = clock.now();
        const entered = {
          ...ctx.session,
          data: { ...ctx.session.data, passwordConfirmedAt: now.toISOString() },
        };
        setReenterPasswordCookie(
          ctx.reply,
          config,
          ctx.session,
          factors.reenterPassword.expiresAt(entered),
          now,
        );
      }
      return result;
    });

  /** A change that revoked the trusted devices: this browser's device cookie goes too. */
  const devicesRevoked = (ctx: Ctx, session: SessionRow) => clearDeviceCookie(ctx.reply, config, session);

  /**
   * After a new password, a new authenticator app or a verified mobile (the SMS factor enabled or
   * moved to it) the session goes on under the new token the change gave it (ProfileService):
   * its cookie replaces the old one, worth nothing now. Disabling a factor or removing the mobile
   * adds no credential and keeps the token.
   */
  const renewedCookie = (ctx: Ctx, session: SessionRow, renewed: RenewedToken) => {
    const next: SessionRow = { ...session, idHash: renewed.idHash };
    setSessionCookie(ctx.reply, config, { token: renewed.token, session: next });
    rememberSession(ctx.request, next);
    auditEvent('SESSION_RENEWED', {
      identityId: session.identityId,
      sessionIdHash: renewed.idHash,
      previousSessionHash: shortHash(session.idHash),
    });
  };

  register(app, calls.updateProfile, authenticated, async (ctx) => {
    const { currentPassword, name, birthDate, phone } = ctx.body;
    const update: ProfileUpdate =
      name !== undefined ? { name } : birthDate !== undefined ? { birthDate } : { phone: phone ?? null };
    return profile.updateProfile(sessionOf(ctx), currentPassword, update);
  });

  register(app, calls.changePassword, authenticated, async (ctx) => {
    const session = sessionOf(ctx);
    const renewed = await profile.changePassword(session, ctx.body);
    devicesRevoked(ctx, session);
    renewedCookie(ctx, session, renewed);
    return null;
  });

  register(app, calls.changeSecurityQuestions, authenticated, async (ctx) => {
    await profile.changeSecurityQuestions(sessionOf(ctx), ctx.body);
    return null;
  });

  register(app, calls.removeMobile, authenticated, async (ctx) => {
    const session = sessionOf(ctx);
    const user = await profile.removeMobile(session, ctx.body.currentPassword);
    devicesRevoked(ctx, session);
    return user;
  });

  register(app, calls.unenrolSms, authenticated, async (ctx) => {
    const session = sessionOf(ctx);
    await profile.unenrolSms(session, ctx.body.currentPassword);
    devicesRevoked(ctx, session);
    return null;
  });

  register(app, calls.unenrolAuthenticatorApp, authenticated, async (ctx) => {
    const session = sessionOf(ctx);
    await profile.unenrolAuthenticatorApp(session, ctx.body.currentPassword);
    devicesRevoked(ctx, session);
    return null;
  });

  // ---- Change email ---------------------------------------------------------------------------

  register(app, calls.changeEmailStart, authenticated, async (ctx) => {
    await profile.changeEmailStart(sessionOf(ctx), ctx.body);
    return null;
  });

  register(app, calls.changeEmailSendEmail, authenticated, async (ctx) => {
    await profile.changeEmailResend(sessionOf(ctx));
    return null;
  });

  register(app, calls.changeEmailVerifyEmail, authenticated, async (ctx) => {
    const session = sessionOf(ctx);
    const user = await profile.changeEmailVerify(session, ctx.body.code);
    devicesRevoked(ctx, session);
    return user;
  });

  register(app, calls.changeEmailCancel, authenticated, async (ctx) => {
    await profile.changeEmailCancel(sessionOf(ctx));
    return null;
  });

  // ---- Change mobile / enable SMS -------------------------------------------------------------

  register(app, calls.changeMobileStart, authenticated, async (ctx) =>
    profile.changeMobileStart(sessionOf(ctx), ctx.body),
  );

  register(app, calls.changeMobileSendSms, authenticated, async (ctx) => {
    await profile.changeMobileResend(sessionOf(ctx));
    return null;
  });

  register(app, calls.changeMobileVerifyMobile, authenticated, async (ctx) => {
    const session = sessionOf(ctx);
    const { user, renewed } = await profile.changeMobileVerify(session, ctx.body.code);
    devicesRevoked(ctx, session);
    renewedCookie(ctx, session, renewed);
    return user;
  });

  register(app, calls.changeMobileCancel, authenticated, async (ctx) => {
    await profile.changeMobileCancel(sessionOf(ctx));
    return null;
  });

  // ---- Authenticator app ----------------------------------------------------------------------

  register(app, calls.getAuthenticatorAppSetupKey, authenticated, async (ctx) =>
    profile.setupKey(sessionOf(ctx)),
  );

  register(app, calls.getAuthenticatorAppQrCode, authenticated, async (ctx) =>
    profile.qrCode(sessionOf(ctx)),
  );

  register(app, calls.changeAuthenticatorApp, authenticated, async (ctx) => {
    const session = sessionOf(ctx);
    const renewed = await profile.changeAuthenticatorApp(session, ctx.body);
    devicesRevoked(ctx, session);
    renewedCookie(ctx, session, renewed);
    return null;
  });

  // ---- Reading --------------------------------------------------------------------------------

  register(app, calls.getEnrolledFactors, authenticated, async (ctx) =>
    profile.enrolledFactors(ctx.identityId()),
  );

  registerCall(
    app,
    calls.getIdentityVerified,
    authenticated,
    async (ctx) => (await profile.identityOf(sessionOf(ctx))).identity.identity_verified,
  );

  register(app, calls.getSalaryNumber, authenticated, async (ctx) => {
    const { identity } = await profile.identityOf(sessionOf(ctx));
    if (!identity.is_staff) throw refuse.forbidden(SALARY_STAFF_ONLY_MESSAGE);
    return { salaryNumber: identity.salary_number };
  });

  // ---- Trusted devices and signing out everywhere ---------------------------------------------

  register(app, calls.getActiveTrustedDevices, authenticated, async (ctx) =>
    factors.trustedDevices.active(ctx.identityId()),
  );

  register(app, calls.clearTrustedDevices, authenticated, async (ctx) => {
    const session = sessionOf(ctx);
    await profile.clearTrustedDevices(session);
    devicesRevoked(ctx, session);
    return null;
  });

  register(app, calls.deleteTrustedDevice, authenticated, async (ctx) => {
    await profile.deleteTrustedDevice(sessionOf(ctx), ctx.params.id);
    return null;
  });

  register(app, sessionCalls.singleLogout, authenticated, async (ctx) => {
    const session = sessionOf(ctx);
    const identityId = ctx.identityId();
    await profile.signOutOfAllDevices({
      identityId,
      actorIdentityId: identityId,
      ticketCode: ctx.body.ticketCode ?? null,
    });
    clearSessionCookie(ctx.reply, config);
    clearReenterPasswordCookie(ctx.reply, config, session);
    devicesRevoked(ctx, session);
    return null;
  });
}
