import type { SnapshotFrom } from 'xstate';
import type { FieldError } from '../../src/contract/errors';
import type { registrationMachine } from './registration.machine';

type Snapshot = SnapshotFrom<typeof registrationMachine>;

/** Which view the page shows. */
export type RegistrationView =
  | 'preparing'
  | 'start'
  | 'collectDetails'
  | 'loadingAuthenticator'
  | 'selectAuthenticatorApp'
  | 'authenticatorAppVerification'
  | 'selectSms'
  | 'smsVerification'
  | 'securityQuestions'
  | 'setPassword'
  | 'verifyIdentity'
  | 'continuing'
  | 'failed'
  | 'done';

export const selectView = (snapshot: Snapshot): RegistrationView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches({ start: 'preparing' })) return 'preparing';
  if (snapshot.matches('start')) return 'start';
  if (snapshot.matches('collectDetails')) return 'collectDetails';
  if (snapshot.matches({ selectAuthenticatorApp: 'loading' })) return 'loadingAuthenticator';
  if (snapshot.matches('selectAuthenticatorApp')) return 'selectAuthenticatorApp';
  if (snapshot.matches('authenticatorAppVerification')) return 'authenticatorAppVerification';
  if (snapshot.matches('selectSms')) return 'selectSms';
  if (snapshot.matches('smsVerification')) return 'smsVerification';
  if (snapshot.matches('securityQuestions')) return 'securityQuestions';
  if (snapshot.matches('setPassword')) return 'setPassword';
  if (snapshot.matches('verifyIdentity')) return 'verifyIdentity';
  if (snapshot.matches('continuing')) return 'continuing';
  return 'failed';
};

/** The screen's call is under way. */
export const selectBusy = (snapshot: Snapshot): boolean =>
  snapshot.matches({ start: 'starting' }) ||
  snapshot.matches({ collectDetails: 'submitting' }) ||
  snapshot.matches({ selectAuthenticatorApp: 'enrollingEmail' }) ||
  snapshot.matches({ authenticatorAppVerification: 'verifying' }) ||
  snapshot.matches({ selectSms: 'enrolling' }) ||
  snapshot.matches({ smsVerification: 'verifying' }) ||
  snapshot.matches({ securityQuestions: 'submitting' }) ||
  snapshot.matches({ setPassword: 'submitting' }) ||
  snapshot.matches({ verifyIdentity: 'submitting' });

export const selectResending = (snapshot: Snapshot): boolean =>
  snapshot.matches({ smsVerification: 'resending' });

/** The progress of the current step (section 2.5), from its state meta. */
export const selectProgress = (snapshot: Snapshot): number | null => {
  const meta = snapshot.getMeta() as Record<string, { progress?: unknown } | undefined>;
  for (const node of [...snapshot._nodes].reverse()) {
    const progress = meta[node.id]?.progress;
    if (typeof progress === 'number') return progress;
  }
  return null;
};

export const selectRefusal = (snapshot: Snapshot) => snapshot.context.refusal;

export const selectFieldErrors = (snapshot: Snapshot): Readonly<Record<string, string>> =>
  Object.fromEntries(
    (snapshot.context.refusal?.fieldErrors ?? []).map((e: FieldError) => [e.fieldName, e.message]),
  );

export const selectInvite = (snapshot: Snapshot) => snapshot.context.invite;
export const selectEditable = (snapshot: Snapshot) => ({
  username: snapshot.context.usernameEditable,
  name: snapshot.context.nameEditable,
});
/** The captcha image being shown: the view asks for a new image whenever this changes. */
export const selectCaptchaDraw = (snapshot: Snapshot): number => snapshot.context.captchaDraw;
export const selectAuthenticator = (snapshot: Snapshot) => snapshot.context.authenticator;
export const selectMobile = (snapshot: Snapshot): string | null => snapshot.context.mobile;
export const selectQuestions = (snapshot: Snapshot) => snapshot.context.questions;
export const selectResendRefusal = (snapshot: Snapshot): string | null => snapshot.context.resendRefusal;
export const selectSmsUnavailableMessage = (snapshot: Snapshot): string | null =>
  snapshot.context.smsUnavailableMessage;
export const selectErrorMessage = (snapshot: Snapshot): string | null => snapshot.context.errorMessage;
