// The MFA machine's actors over the api module: the only file of this flow that imports it.
import { fromPromise } from 'xstate';
import type {
  CodeChannel,
  MfaNext,
  OutcomeResult,
  ResendResult,
  TrustedDevicePeriod,
  VerifyCodeInput,
} from '../../../../../machines/forced/mfa/mfa.types';
import type { FactorType } from '../../../../contract/entities';
import { forcedCalls } from '../../../../contract/forced';
import { getTrustedDevicePeriod, skipMfa, startMfa, verifyMfaCode } from '../../../api';
import { unlessAborted } from '../../shared/actor-calls';
import { continueSignIn, resend, withRefusals } from '../shared/continue-sign-in.actors';

const verifyCalls = {
  AUTHENTICATOR_APP: forcedCalls.mfaVerifyAuthenticatorApp,
  SMS: forcedCalls.mfaVerifyMobile,
  EMAIL: forcedCalls.mfaVerifyEmail,
} as const satisfies Record<FactorType, unknown>;

const resendCalls = { email: forcedCalls.mfaSendEmail, sms: forcedCalls.mfaSendSms } as const;

export const mfaActors = {
  getTrustedDevicePeriod: fromPromise<TrustedDevicePeriod>(({ signal }) =>
    unlessAborted(signal, (signal) => getTrustedDevicePeriod({ signal })),
  ),
  startMfa: fromPromise<MfaNext>(({ signal }) => unlessAborted(signal, (signal) => startMfa({ signal }))),
  skipMfa: fromPromise<MfaNext>(({ signal }) => unlessAborted(signal, (signal) => skipMfa({ signal }))),
  verifyCode: fromPromise<OutcomeResult, VerifyCodeInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) =>
      withRefusals<Awaited<ReturnType<typeof verifyMfaCode>>, OutcomeResult>(
        () =>
          verifyMfaCode(
            verifyCalls[input.factor],
            { code: input.code, trustDevice: input.trustDevice },
            { signal },
          ),
        (outcome) => ({ type: 'outcome', outcome }),
        (refusal) => ({ type: 'refused', ...refusal }),
      ),
    ),
  ),
  resendCode: fromPromise<ResendResult, { channel: CodeChannel }>(({ input, signal }) =>
    unlessAborted(signal, (signal) => resend(resendCalls[input.channel], signal)),
  ),
  continueSignIn,
};
