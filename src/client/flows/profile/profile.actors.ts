// The profile machines' actors over the api module: the only file of the profile flows that
// imports it. Expected refusals (422, an accepted SMS 503) are results; anything else is thrown.
import { fromPromise } from 'xstate';
import type {
  AppSetup,
  VerifyAppInput,
  VerifyAppResult,
} from '../../../../machines/profile/app-wizard/app-wizard.types';
import type {
  ResendResult,
  StartInput,
  StartResult,
  VerifyResult,
} from '../../../../machines/profile/code-wizard/code-wizard.types';
import type { FormValues, SubmitResult } from '../../../../machines/profile/profile-form/profile-form.types';
import type { CurrentUser, HandoffTarget } from '../../../contract/entities';
import type { TrustedDevice } from '../../../contract/profile';
import { getAccessibleApps, getEnum, isApiError } from '../../api';
import * as api from '../../api/profile';
import { customerUnavailableOf, refusalOf } from '../forced/shared/continue-sign-in.actors';
import { unlessAborted } from '../shared/actor-calls';

/** The single-step screens, by the call each makes. */
export type ProfileFormScreen =
  | 'changeName'
  | 'changePassword'
  | 'changePhone'
  | 'changeDateOfBirth'
  | 'changeSecurityQuestions'
  | 'removeMobile'
  | 'unenrolSms'
  | 'unenrolAuthenticatorApp';

const str = (values: FormValues, name: string): string => String(values[name] ?? '');

/** Each screen's call from the form's values; the updated user where the call answers one. */
const submitters: Record<
  ProfileFormScreen,
  (values: FormValues, signal: AbortSignal) => Promise<CurrentUser | null>
> = {
  changeName: (values, signal) =>
    api.updateProfile({ currentPassword: values.currentPassword, name: str(values, 'name') }, { signal }),
  changePhone: (values, signal) =>
    api.updateProfile(
      { currentPassword: values.currentPassword, phone: str(values, 'phone').trim() || null },
      { signal },
    ),
  changeDateOfBirth: (values, signal) =>
    api.updateProfile(
      { currentPassword: values.currentPassword, birthDate: str(values, 'birthDate') || null },
      { signal },
    ),
  // Not cancelled when the page is left: the server gives the session a new token with the new
  // password, and only the answer carries its cookie (aborted, the session would end unseen).
  changePassword: async (values) => {
    await api.changePassword({
      currentPassword: values.currentPassword,
      newPassword: str(values, 'newPassword'),
      confirmNewPassword: str(values, 'confirmNewPassword'),
    });
    return null;
  },
  changeSecurityQuestions: async (values, signal) => {
    await api.changeSecurityQuestions(
      {
        currentPassword: values.currentPassword,
        question1: str(values, 'question1'),
        answer1: str(values, 'answer1'),
        question2: str(values, 'question2'),
        answer2: str(values, 'answer2'),
      },
      { signal },
    );
    return null;
  },
  removeMobile: (values, signal) => api.removeMobile({ currentPassword: values.currentPassword }, { signal }),
  unenrolSms: async (values, signal) => {
    await api.unenrolSms({ currentPassword: values.currentPassword }, { signal });
    return null;
  },
  unenrolAuthenticatorApp: async (values, signal) => {
    await api.unenrolAuthenticatorApp({ currentPassword: values.currentPassword }, { signal });
    return null;
  },
};

export function profileFormActors(screen: ProfileFormScreen) {
  return {
    isIdentityVerified: fromPromise<boolean>(({ signal }) =>
      unlessAborted(signal, (signal) => api.getIdentityVerified({ signal })),
    ),
    submit: fromPromise<SubmitResult, FormValues>(({ input, signal }) =>
      unlessAborted(signal, async (signal) => {
        try {
          return { type: 'saved', user: await submitters[screen](input, signal) };
        } catch (error) {
          const refusal = refusalOf(error);
          if (refusal) return { type: 'refused', ...refusal };
          throw error;
        }
      }),
    ),
  };
}

// ---- Code wizards ---------------------------------------------------------------------------

async function refusedOr<T>(
  call: () => Promise<T>,
): Promise<T | ({ type: 'refused' } & NonNullable<ReturnType<typeof refusalOf>>)> {
  try {
    return await call();
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return { type: 'refused', ...refusal };
    throw error;
  }
}

async function resendWith(
  call: (options: { signal: AbortSignal }) => Promise<unknown>,
  signal: AbortSignal,
): Promise<ResendResult> {
  try {
    await call({ signal });
    return { type: 'sent' };
  } catch (error) {
    const unavailable = customerUnavailableOf(error);
    if (unavailable !== null) return { type: 'unavailable', message: unavailable };
    const refusal = refusalOf(error);
    if (refusal) return { type: 'refused', message: refusal.message };
    throw error;
  }
}

function codeWizardActors(calls: {
  start: (input: StartInput, signal: AbortSignal) => Promise<StartResult>;
  verify: (code: string, signal: AbortSignal) => Promise<CurrentUser>;
  resend: (options: { signal: AbortSignal }) => Promise<unknown>;
  cancel: (options: { signal: AbortSignal }) => Promise<unknown>;
}) {
  return {
    start: fromPromise<StartResult, StartInput>(({ input, signal }) =>
      unlessAborted(signal, async (signal) => {
        try {
          return await calls.start(input, signal);
        } catch (error) {
          const unavailable = customerUnavailableOf(error);
          if (unavailable !== null) return { type: 'unavailable', message: unavailable };
          const refusal = refusalOf(error);
          if (refusal) return { type: 'refused', ...refusal };
          throw error;
        }
      }),
    ),
    verify: fromPromise<VerifyResult, { code: string }>(({ input, signal }) =>
      unlessAborted(signal, (signal) =>
        refusedOr(async () => ({ type: 'verified' as const, user: await calls.verify(input.code, signal) })),
      ),
    ),
    resend: fromPromise<ResendResult>(({ signal }) =>
      unlessAborted(signal, (signal) => resendWith(calls.resend, signal)),
    ),
    cancelChange: fromPromise<void>(({ signal }) =>
      unlessAborted(signal, async (signal) => {
        await calls.cancel({ signal });
      }),
    ),
  };
}

export const changeEmailActors = codeWizardActors({
  start: async ({ currentPassword, value }, signal) => {
    await api.changeEmailStart({ currentPassword, email: value.trim() }, { signal });
    return { type: 'codeSent', destination: value.trim() };
  },
  verify: (code, signal) => api.changeEmailVerify(code, { signal }),
  resend: api.changeEmailResend,
  cancel: api.changeEmailCancel,
});

const mobileStart =
  (enrolSmsFactor: boolean) =>
  async ({ currentPassword, value }: StartInput, signal: AbortSignal): Promise<StartResult> => {
    const answer = await api.changeMobileStart(
      { currentPassword, mobile: value, ...(enrolSmsFactor ? { enrolSmsFactor } : {}) },
      { signal },
    );
    return 'isSmsVerificationRequired' in answer
      ? { type: 'codeSent', destination: answer.mobile }
      : { type: 'updated', user: answer };
  };

const mobileCalls = {
  // Not cancelled: a verified mobile gives the session a new token, carried only by the answer.
  verify: (code: string) => api.changeMobileVerify(code),
  resend: api.changeMobileResend,
  cancel: api.changeMobileCancel,
};

export const changeMobileActors = codeWizardActors({ start: mobileStart(false), ...mobileCalls });
export const enrolSmsActors = codeWizardActors({ start: mobileStart(true), ...mobileCalls });

// ---- Authenticator-app wizards --------------------------------------------------------------

export const appWizardActors = {
  loadSetup: fromPromise<AppSetup>(({ signal }) =>
    unlessAborted(signal, async (signal) => {
      // The key first: it creates the session's new secret that the QR code then shows.
      const { setupKey } = await api.getAuthenticatorAppSetupKey({ signal });
      const qrCode = await api.getAuthenticatorAppQrCode({ signal });
      return { setupKey, qrCode };
    }),
  ),
  verify: fromPromise<VerifyAppResult, VerifyAppInput>(({ input, signal }) =>
    unlessAborted(signal, () =>
      refusedOr(async () => {
        // Not cancelled: a new app gives the session a new token, carried only by the answer.
        await api.changeAuthenticatorApp(input);
        return { type: 'verified' as const };
      }),
    ),
  ),
};

// ---- The profile page's own calls -----------------------------------------------------------

export interface ProfileFacts {
  factors: string[];
  devices: TrustedDevice[];
  /** 1 (24 hours) or 7 (7 days). */
  period: number;
}

export const profileCalls = {
  async loadFacts(signal: AbortSignal): Promise<ProfileFacts> {
    const [factors, devices, period] = await Promise.all([
      api.getEnrolledFactors({ signal }),
      api.getActiveTrustedDevices({ signal }),
      api.getTrustedDevicePeriod({ signal }),
    ]);
    return { factors, devices, period };
  },
  deleteTrustedDevice: (id: string, signal?: AbortSignal) => api.deleteTrustedDevice(id, { signal }),
  clearTrustedDevices: (signal?: AbortSignal) => api.clearTrustedDevices({ signal }),
  accessibleApps: (signal: AbortSignal): Promise<HandoffTarget[]> => getAccessibleApps({ signal }),
  /** Sign out of all devices; a 422 (ticket code) is answered as its message. */
  async signOutOfAllDevices(ticketCode: string | null): Promise<string | null> {
    try {
      await api.signOutOfAllDevices(ticketCode ? { ticketCode } : {});
      return null;
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) return refusal.fieldErrors[0]?.message ?? refusal.message;
      throw error;
    }
  },
  async securityQuestions(signal: AbortSignal): Promise<Array<{ code: string; description: string }>> {
    return getEnum({ name: 'security-questions' }, { signal });
  },
  isApiError,
};
