// Merge-identities calls of section 7: the DUPLICATE_ACCOUNTS forced step. Every call needs a
// pending session whose current step is DUPLICATE_ACCOUNTS (route.ts answers 401 or 403
// otherwise); the wizard's order is enforced by domain/merge from the session's data.
import type { FastifyInstance } from 'fastify';
import { mergeCalls as calls } from '../../../contract/merge';
import { findIdentityWithRoles } from '../../db/repositories/identities';
import type { Identity } from '../../db/schema';
import { refuse } from '../../domain/errors';
import { EMAIL_CODE_ONLY_MESSAGE } from '../../domain/merge/messages';
import type { SessionRow } from '../../domain/sessions';
import { afterSignInStep, deviceTokenOf } from '../device-cookies';
import { registerCall, type CallContext } from '../route';

type Ctx = CallContext<unknown, unknown, unknown>;

export async function mergeRoutes(app: FastifyInstance): Promise<void> {
  const services = app.services;
  const { config, db, signInFlow, merge } = services;
  const step = { access: 'pending', step: 'DUPLICATE_ACCOUNTS' } as const;

  async function pendingOf(ctx: Ctx): Promise<{ session: SessionRow; identity: Identity }> {
    const session = ctx.session;
    if (!session?.identityId) throw refuse.sessionExpired();
    const found = await findIdentityWithRoles(db, session.identityId);
    if (!found) throw refuse.sessionExpired();
    return { session, identity: found.identity };
  }

  /** Ends the step: the wizard's data is dropped and the sign-in goes on. */
  async function continueSignIn(ctx: Ctx, session: SessionRow) {
    const next = await signInFlow.continueAfter(session, 'DUPLICATE_ACCOUNTS', {
      deviceToken: deviceTokenOf(ctx.request, config),
      data: { merge: undefined, mergePasswordFailures: undefined },
    });
    afterSignInStep(ctx.reply, services, next);
    return next.outcome;
  }

  registerCall(app, calls.getMergeIdentities, step, async (ctx) => {
    const { identity } = await pendingOf(ctx);
    return merge.candidates(identity);
  });

  registerCall(app, calls.skipMerge, step, async (ctx) => {
    const { session } = await pendingOf(ctx);
    await merge.assertSkippable();
    return continueSignIn(ctx, session);
  });

  registerCall(app, calls.mergeContinueSignIn, step, async (ctx) => {
    const { session } = await pendingOf(ctx);
    merge.assertFinished(session);
    return continueSignIn(ctx, session);
  });

  // Each selected account costs an argon2id verification: limited like the login.
  registerCall(
    app,
    calls.mergeSelectAccounts,
    { ...step, rateLimitPerMinute: config.loginRateLimitPerMinute },
    async (ctx) => {
      const { session, identity } = await pendingOf(ctx);
      return merge.selectAccounts(session, identity, ctx.body.identities);
    },
  );

  registerCall(app, calls.mergeChangeEmail, step, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await merge.changeEmail(session, identity, ctx.body.email);
    return null;
  });

  registerCall(app, calls.mergeSendEmail, step, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await merge.resendEmailCode(session, identity);
    return null;
  });

  registerCall(app, calls.mergeVerifyEmail, step, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await merge.verifyEmail(session, identity, ctx.body.code);
    return null;
  });

  // Section 7 lists these under every code prefix; the merge has no SMS or authenticator step.
  for (const call of [calls.mergeSendSms, calls.mergeVerifyMobile, calls.mergeVerifyAuthenticatorApp]) {
    registerCall(app, call, step, async (ctx) => {
      await pendingOf(ctx);
      throw refuse.unprocessable(EMAIL_CODE_ONLY_MESSAGE);
    });
  }

  registerCall(app, calls.getPreferredUsernames, step, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    return merge.preferredUsernames(session, identity);
  });

  registerCall(app, calls.mergePreferredUsername, step, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    await merge.choosePreferredUsername(session, identity, ctx.body.username);
    return null;
  });

  registerCall(app, calls.generateMergeDetails, step, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    return merge.details(session, identity);
  });

  merge.reportNoticeFailure = (error) => app.log.warn({ err: error }, 'A merge notice could not be sent');

  registerCall(app, calls.confirmMerge, step, async (ctx) => {
    const { session, identity } = await pendingOf(ctx);
    return merge.confirm(session, identity);
  });
}
