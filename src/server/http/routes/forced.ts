// Forced sign-in steps of section 7: change expired password, factor enrolment and MFA. Every
// call needs a pending session whose current step is the call's (route.ts answers 401 or 403
// otherwise). A completed step continues the sign-in (domain/sign-in-flow.ts) and answers its
// authentication outcome.
import type { FastifyInstance } from 'fastify';
import type { ForcedAction } from '../../../contract/entities';
import { forcedCalls as calls } from '../../../contract/forced';
import { replacePassword } from '../../db/repositories/factors-credentials';
import { passwordHashOf } from '../../db/repositories/factors';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import type { Identity } from '../../db/schema';
import { refuse } from '../../domain/errors';
import { PASSWORD_MISMATCH_MESSAGE, PASSWORD_SAME_MESSAGE } from '../../domain/password-policy';
import type { SessionRow } from '../../domain/sessions';
import { afterSignInStep, clearDeviceCookie, deviceTokenOf, setDeviceCookie } from '../device-cookies';
import { registerCall, type CallContext } from '../route';

type Ctx = CallContext<unknown, unknown, unknown>;

export async function forcedRoutes(app: FastifyInstance): Promise<void> {
  const services = app.services;
  const { config, db, clock, hasher, signInFlow, factors } = services;

  /** The pending session and its identity. */
  async function pendingOf(ctx: Ctx): Promise<{ session: SessionRow; identity: Identity }> {
    const session = ctx.session;
    if (!session?.identityId) throw refuse.sessionExpired();
    const found = await findIdentityWithRoles(db, session.identityId);
    if (!found) throw refuse.sessionExpired();
    return { session, identity: found.identity };
  }

  async function continueSignIn(
    ctx: Ctx,
    session: SessionRow,
    step: ForcedAction,
    options: { deviceToken?: string | null; alsoPassed?: ForcedAction[] } = {},
  ) {
    const next = await signInFlow.continueAfter(session, step, {
      deviceToken:
        options.deviceToken !== undefined ? options.deviceToken : deviceTokenOf(ctx.request, config),
      ...(options.alsoPassed ? { alsoPassed: options.alsoPassed } : {}),
    });
    afterSignInStep(ctx.reply, services, next);
    return next.outcome;
  }

  // ---- Change expired password --------------------------------------------------------------

  registerCall(
    app,
    calls.changeExpiredPassword,
    { access: 'pending', step: 'CHANGE_EXPIRED_PASSWORD' },
    async (ctx) => {
      const { session, identity } = await pendingOf(ctx);
      const { password, confirmPassword } = ctx.body;
      if (password !== confirmPassword) {
        throw refuse.unprocessable(PASSWORD_MISMATCH_MESSAGE, [
          { fieldName: 'confirmPassword', message: PASSWORD_MISMATCH_MESSAGE },
        ]);
      }
      const reason = await factors.passwordPolicy.refusal(password, identity);
      if (reason) throw refuse.unprocessable(reason, [{ fieldName: 'password', message: reason }]);
      const currentHash = await passwordHashOf(db, identity.id);
      if (currentHash && (await hasher.verify(currentHash, password))) {
        throw refuse.unprocessable(PASSWORD_SAME_MESSAGE, [
          { fieldName: 'password', message: PASSWORD_SAME_MESSAGE },
        ]);
      }
      const passwordHash = await hasher.hash(password);
      await db.transaction().execute((trx) =>
        replacePassword(trx, {
          identityId: identity.id,
          passwordHash,
          now: clock.now(),
          keepSessionIdHash: session.idHash,
        }),
      );
      // The change revoked every trusted device, this browser's too.
      clearDeviceCookie(ctx.reply, config, session);
      return continueSignIn(ctx, session, 'CHANGE_EXPIRED_PASSWORD', { deviceToken: null });
    },
  );

  // ---- Factor enrolment ---------------------------------------------------------------------

  const enrolment = { access: 'pending', step: 'FACTOR_ENROLMENT' } as const;

  registerCall(
    app,
    calls.getMfaRequired,
    enrolment,
    async (ctx) => (await pendingOf(ctx)).identity.mfa_required,
  );

  registerCall(app, calls.factorEnrolmentSendEmail, enrolment, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.enrolment.sendEmailCode(session, identity);
    return null;
  });

  registerCall(app, calls.factorEnrolmentVerifyEmail, enrolment, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.enrolment.verifyEmail(session, identity, ctx.body.code);
    return null;
  });

  registerCall(app, calls.factorEnrolmentEnrolSms, enrolment, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    return factors.enrolment.enrolSms(session, identity, ctx.body);
  });

  registerCall(app, calls.factorEnrolmentSendSms, enrolment, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.enrolment.sendSmsCode(session, identity);
    return null;
  });

  registerCall(app, calls.factorEnrolmentVerifyMobile, enrolment, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.enrolment.verifyMobile(session, identity, ctx.body.code);
    return null;
  });

  registerCall(app, calls.getFactorEnrolmentSetupKey, enrolment, async (ctx) => {
    const { session } = await pendingOf(ctx);
    return factors.enrolment.setupKey(session);
  });

  registerCall(app, calls.getFactorEnrolmentQrCode, enrolment, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    return factors.enrolment.qrCode(session, identity);
  });

  registerCall(app, calls.factorEnrolmentVerifyAuthenticatorApp, enrolment, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.enrolment.verifyAuthenticatorApp(session, identity, ctx.body.code);
    return null;
  });

  registerCall(app, calls.factorEnrolmentSubmit, enrolment, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.enrolment.submit(session, identity, ctx.body);
    // Enrolling proved the factors this sign-in would ask for next: MFA is passed with it. The
    // enrolment revoked trusted devices, so this browser's cookie no longer counts.
    clearDeviceCookie(ctx.reply, config, session);
    return continueSignIn(ctx, session, 'FACTOR_ENROLMENT', { deviceToken: null, alsoPassed: ['MFA'] });
  });

  // ---- MFA ----------------------------------------------------------------------------------

  const mfa = { access: 'pending', step: 'MFA' } as const;

  registerCall(app, calls.mfaStart, mfa, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    return factors.mfa.start(session, identity);
  });

  registerCall(app, calls.mfaSkip, mfa, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    return factors.mfa.skip(session, identity);
  });

  registerCall(app, calls.mfaSendSms, mfa, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.mfa.sendSms(session, identity);
    return null;
  });

  registerCall(app, calls.mfaSendEmail, mfa, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.mfa.sendEmail(session, identity);
    return null;
  });

  /** After a verified MFA code: trust the browser when asked, then continue the sign-in. */
  async function passMfa(ctx: Ctx, session: SessionRow, identity: Identity, trustDevice: boolean) {
    let deviceToken = deviceTokenOf(ctx.request, config, session);
    if (trustDevice) {
      const trusted = await factors.trustedDevices.trust({
        identityId: identity.id,
        userAgent: ctx.request.headers['user-agent'],
        ipAddress: ctx.request.ip ?? null,
      });
      setDeviceCookie(ctx.reply, config, session, trusted.token, trusted.maxAgeSeconds);
      deviceToken = trusted.token;
    }
    return continueSignIn(ctx, session, 'MFA', { deviceToken });
  }

  registerCall(app, calls.mfaVerifyAuthenticatorApp, mfa, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.mfa.verifyAuthenticatorApp(session, identity, ctx.body.code);
    return passMfa(ctx, session, identity, ctx.body.trustDevice);
  });

  registerCall(app, calls.mfaVerifyMobile, mfa, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.mfa.verifyMobile(session, identity, ctx.body.code);
    return passMfa(ctx, session, identity, ctx.body.trustDevice);
  });

  registerCall(app, calls.mfaVerifyEmail, mfa, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await factors.mfa.verifyEmail(session, identity, ctx.body.code);
    return passMfa(ctx, session, identity, ctx.body.trustDevice);
  });
}
