import type { SnapshotFrom } from 'xstate';
import type { FieldError } from '../../../src/contract/errors';
import type { factorEnrolmentMachine } from './factor-enrolment.machine';
import type { SecurityQuestion } from './factor-enrolment.types';

type Snapshot = SnapshotFrom<typeof factorEnrolmentMachine>;

/** Which view the page shows. */
export type FactorEnrolmentView =
  | 'loading'
  | 'emailVerification'
  | 'selectSms'
  | 'smsVerification'
  | 'securityQuestions'
  | 'continuing'
  | 'failed'
  | 'done';

export const selectView = (snapshot: Snapshot): FactorEnrolmentView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('email')) return 'emailVerification';
  if (snapshot.matches('selectSms')) return 'selectSms';
  if (snapshot.matches('smsVerification')) return 'smsVerification';
  if (snapshot.matches('securityQuestions')) return 'securityQuestions';
  if (snapshot.matches('continuing')) return 'continuing';
  if (snapshot.matches('failed')) return 'failed';
  return 'loading';
};

/** The screen's call is under way (verify, enrol, submit). */
export const selectBusy = (snapshot: Snapshot): boolean =>
  snapshot.matches({ email: 'verifying' }) ||
  snapshot.matches({ selectSms: 'enrolling' }) ||
  snapshot.matches({ smsVerification: 'verifying' }) ||
  snapshot.matches({ securityQuestions: 'submitting' });

export const selectResending = (snapshot: Snapshot): boolean =>
  snapshot.matches({ email: 'resending' }) || snapshot.matches({ smsVerification: 'resending' });

/** The progress of the current step (section 2.6), from its state meta. */
export const selectProgress = (snapshot: Snapshot): number | null => {
  const meta = snapshot.getMeta() as Record<string, { progress?: unknown } | undefined>;
  for (const node of [...snapshot._nodes].reverse()) {
    const progress = meta[node.id]?.progress;
    if (typeof progress === 'number') return progress;
  }
  return null;
};

export const selectMfaRequired = (snapshot: Snapshot): boolean => snapshot.context.mfaRequired;

/** The last refusal of the screen: a new object for each one, so the form can react to each. */
export const selectRefusal = (snapshot: Snapshot) => snapshot.context.refusal;

/** Field errors of the last refusal, by field name. */
export const selectFieldErrors = (snapshot: Snapshot): Readonly<Record<string, string>> =>
  Object.fromEntries(
    (snapshot.context.refusal?.fieldErrors ?? []).map((e: FieldError) => [e.fieldName, e.message]),
  );

export const selectResendRefusal = (snapshot: Snapshot): string | null => snapshot.context.resendRefusal;

export const selectSmsUnavailableMessage = (snapshot: Snapshot): string | null =>
  snapshot.context.smsUnavailableMessage;

export const selectMobile = (snapshot: Snapshot): string | null => snapshot.context.mobile;

export const selectQuestions = (snapshot: Snapshot): SecurityQuestion[] => snapshot.context.questions;

export const selectErrorMessage = (snapshot: Snapshot): string | null => snapshot.context.errorMessage;
