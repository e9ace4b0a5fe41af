// Registration calls of section 7 (anonymous/registration/*): the wizard works on the invitation
// its anonymous session holds (domain/registration/service.ts enforces the order); the two
// submissions start a signed-in session and answer an authentication outcome, as sign-in does.
import type { FastifyInstance } from 'fastify';
import { registrationCalls as calls } from '../../../contract/registration';
import { afterSignInStep, deviceTokenOf } from '../device-cookies';
import { registerCall, type CallContext } from '../route';
import { setSessionCookie } from '../session-cookie';

type Ctx = CallContext<unknown, unknown, unknown>;

export async function registrationRoutes(app: FastifyInstance): Promise<void> {
  const services = app.services;
  const { config, registration } = services;
  const anonymous = { access: 'anonymous' } as const;
  // Start and the submissions check secrets (an invitation code, a password): the sign-in limit.
  const guarded = { access: 'anonymous', rateLimitPerMinute: config.loginRateLimitPerMinute } as const;

  const meta = (ctx: Ctx) => ({
    ipAddress: ctx.request.ip ?? null,
    deviceToken: deviceTokenOf(ctx.request, config, ctx.session),
  });

  registerCall(app, calls.registrationStart, guarded, async (ctx) =>
    registration.start(ctx.session, ctx.body),
  );

  registerCall(app, calls.registrationCollectDetails, anonymous, async (ctx) =>
    registration.collectDetails(ctx.session, ctx.body),
  );

  registerCall(app, calls.getRegistrationSetupKey, anonymous, async (ctx) =>
    registration.setupKey(ctx.session),
  );

  registerCall(app, calls.getRegistrationQrCode, anonymous, async (ctx) => registration.qrCode(ctx.session));

  registerCall(app, calls.registrationVerifyAuthenticatorApp, anonymous, async (ctx) =>
    registration.verifyAuthenticatorApp(ctx.session, ctx.body.code),
  );

  registerCall(app, calls.registrationEnrolSms, anonymous, async (ctx) =>
    registration.enrolSms(ctx.session, ctx.body),
  );

  registerCall(app, calls.registrationSendSms, anonymous, async (ctx) => {
    await registration.sendSms(ctx.session);
    return null;
  });

  registerCall(app, calls.registrationVerifyMobile, anonymous, async (ctx) =>
    registration.verifyMobile(ctx.session, ctx.body.code),
  );

  registerCall(app, calls.registrationEnrolEmail, anonymous, async (ctx) => {
    await registration.enrolEmail(ctx.session);
    return null;
  });

  registerCall(app, calls.registrationEnrolSecurityQuestions, anonymous, async (ctx) => {
    await registration.enrolSecurityQuestions(ctx.session, ctx.body);
    return null;
  });

  registerCall(app, calls.registrationSubmitNew, guarded, async (ctx) => {
    const { outcome, issued } = await registration.submitNew(ctx.session, ctx.body, meta(ctx));
    setSessionCookie(ctx.reply, config, issued);
    afterSignInStep(ctx.reply, services, { session: issued.session, token: null });
    return outcome;
  });

  registerCall(app, calls.registrationSubmitExisting, guarded, async (ctx) => {
    const { outcome, issued } = await registration.submitExisting(ctx.session, ctx.body, meta(ctx));
    setSessionCookie(ctx.reply, config, issued);
    afterSignInStep(ctx.reply, services, { session: issued.session, token: null });
    return outcome;
  });
}
