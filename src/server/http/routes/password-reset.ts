// Anonymous password reset calls of section 7 (anonymous/password-reset/...). The rules and the
// order live in domain/password-reset; a call out of order answers a 422 that reroutes the wizard
// to its start. Start replaces a signed-in session with an anonymous one (its cookie is set here).
import type { FastifyInstance } from 'fastify';
import { resetCalls as calls } from '../../../contract/reset';
import { registerCall } from '../route';
import { rememberSession, setSessionCookie } from '../session-cookie';

export async function passwordResetRoutes(app: FastifyInstance): Promise<void> {
  const { config, passwordReset } = app.services;
  const anonymous = { access: 'anonymous' } as const;

  passwordReset.reportTo((message, error) => app.log.warn({ err: error }, message));
  // Sends run after the answer; the server waits for them before it closes.
  app.addHook('onClose', async () => {
    await passwordReset.idle();
  });

  registerCall(
    app,
    calls.passwordResetStart,
    { access: 'anonymous', rateLimitPerMinute: config.loginRateLimitPerMinute },
    async ({ session, body, request, reply }) => {
      const started = await passwordReset.start(session, {
        email: body.email,
        captchaCode: body.captchaCode,
      });
      if (started.replaced) {
        setSessionCookie(reply, config, { token: started.token, session: started.session });
        rememberSession(request, started.session);
      }
      return null;
    },
  );

  registerCall(app, calls.passwordResetSendEmail, anonymous, async ({ session }) => {
    await passwordReset.sendEmail(session);
    return null;
  });

  registerCall(app, calls.passwordResetVerifyEmail, anonymous, async ({ session, body }) =>
    passwordReset.verifyEmail(session, body.code),
  );

  registerCall(app, calls.passwordResetSelectUser, anonymous, async ({ session, body }) =>
    passwordReset.selectUser(session, body),
  );

  registerCall(app, calls.passwordResetVerifyAuthenticatorApp, anonymous, async ({ session, body }) => {
    await passwordReset.verifyAuthenticatorApp(session, body.code);
    return null;
  });

  registerCall(app, calls.passwordResetSendSms, anonymous, async ({ session }) => {
    await passwordReset.sendSms(session);
    return null;
  });

  registerCall(app, calls.passwordResetVerifyMobile, anonymous, async ({ session, body }) => {
    await passwordReset.verifyMobile(session, body.code);
    return null;
  });

  registerCall(app, calls.passwordResetVerifySecurityQuestion, anonymous, async ({ session, body }) => {
    await passwordReset.verifySecurityQuestion(session, body);
    return null;
  });

  registerCall(app, calls.passwordResetSubmit, anonymous, async ({ session, body }) => {
    await passwordReset.submit(session, body);
    return null;
  });
}
