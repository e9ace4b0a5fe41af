// Pure snapshot -> view-model selectors of the password reset wizard.
import type { SnapshotFrom } from 'xstate';
import type { FieldError } from '../../src/contract/errors';
import type { passwordResetMachine } from './password-reset.machine';
import type { PasswordResetDetails } from './password-reset.types';

type Snapshot = SnapshotFrom<typeof passwordResetMachine>;

/** Which view the page shows. */
export type PasswordResetView =
  | 'loading'
  | 'unavailable'
  | 'start'
  | 'emailVerification'
  | 'userSelection'
  | 'authenticatorApp'
  | 'sms'
  | 'securityQuestions'
  | 'setPassword'
  /** set-password without a form: SMS is the only factor and it is down (setPassword.cannotFinish). */
  | 'cannotFinish'
  | 'failed'
  | 'done';

export const selectView = (snapshot: Snapshot): PasswordResetView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches({ setPassword: 'cannotFinish' })) return 'cannotFinish';
  const views = [
    'unavailable',
    'start',
    'emailVerification',
    'userSelection',
    'authenticatorApp',
    'sms',
    'securityQuestions',
    'setPassword',
    'failed',
  ] as const satisfies readonly PasswordResetView[];
  return views.find((view) => snapshot.matches(view)) ?? 'loading';
};

/** The screen's call is under way. */
export const selectBusy = (snapshot: Snapshot): boolean =>
  snapshot.matches({ start: 'starting' }) ||
  snapshot.matches({ emailVerification: 'verifying' }) ||
  snapshot.matches({ userSelection: 'selecting' }) ||
  snapshot.matches({ authenticatorApp: 'verifying' }) ||
  snapshot.matches({ sms: 'verifying' }) ||
  snapshot.matches({ securityQuestions: 'verifying' }) ||
  snapshot.matches({ setPassword: 'submitting' });

/** A code is being sent (the SMS screen's first code, or a resend). */
export const selectSending = (snapshot: Snapshot): boolean =>
  snapshot.matches({ emailVerification: 'resending' }) ||
  snapshot.matches({ sms: 'sending' }) ||
  snapshot.matches({ sms: 'resending' });

/** The progress of the current step (section 2.4), from its state meta. */
export const selectProgress = (snapshot: Snapshot): number | null => {
  const meta = snapshot.getMeta() as Record<string, { progress?: unknown } | undefined>;
  for (const node of [...snapshot._nodes].reverse()) {
    const progress = meta[node.id]?.progress;
    if (typeof progress === 'number') return progress;
  }
  return null;
};

/** The captcha image being shown: the view asks for a new image whenever this changes. */
export const selectCaptchaDraw = (snapshot: Snapshot): number => snapshot.context.captchaDraw;

export const selectRefusal = (snapshot: Snapshot) => snapshot.context.refusal;

/** Field errors of the last refusal, by field name. */
export const selectFieldErrors = (snapshot: Snapshot): Readonly<Record<string, string>> =>
  Object.fromEntries(
    (snapshot.context.refusal?.fieldErrors ?? []).map((e: FieldError) => [e.fieldName, e.message]),
  );

export const selectResendRefusal = (snapshot: Snapshot): string | null => snapshot.context.resendRefusal;
export const selectEmail = (snapshot: Snapshot): string | null => snapshot.context.email;
export const selectDetails = (snapshot: Snapshot): PasswordResetDetails | null => snapshot.context.details;
export const selectSmsUnavailableMessage = (snapshot: Snapshot): string | null =>
  snapshot.context.smsUnavailableMessage;
export const selectErrorMessage = (snapshot: Snapshot): string | null => snapshot.context.errorMessage;

/** "I don't have access" is offered only where the machine would accept it (section 4.5's skips). */
export const selectCanSkip = (snapshot: Snapshot): boolean => snapshot.can({ type: 'user.skip' });

/** The questions asked (the account's challenges), each with how it reads. */
export const selectChallenges = (snapshot: Snapshot): Array<{ code: string; description: string }> =>
  (snapshot.context.details?.challenges ?? []).map((code) => ({
    code,
    description: snapshot.context.questions.find((q) => q.code === code)?.description ?? code,
  }));
