import type { SnapshotFrom } from 'xstate';
import type { SamlHandoffData } from '../../src/contract/entities';
import type { FieldError } from '../../src/contract/errors';
import type { signInMachine } from './sign-in.machine';

type Snapshot = SnapshotFrom<typeof signInMachine>;

/** Which view the page shows. */
export type SignInView =
  | 'loading'
  | 'form'
  | 'unavailable'
  | 'postingSaml'
  | 'handingOff'
  | 'jwtOutsideFrame'
  | 'signingIn'
  | 'failed'
  | 'done';

export const selectView = (snapshot: Snapshot): SignInView => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('loadingFailedCount')) return 'loading';
  if (
    snapshot.matches('form') ||
    snapshot.matches('submitting') ||
    snapshot.matches('recheckingFailedCount')
  ) {
    return 'form';
  }
  if (snapshot.matches('unavailable')) return 'unavailable';
  if (snapshot.matches('postingSaml')) return 'postingSaml';
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('handingOffToParent')) return 'handingOff';
  if (snapshot.matches('jwtOutsideFrame')) return 'jwtOutsideFrame';
  return 'signingIn';
};

/** The form is busy: a sign-in is under way or the count is being checked after a refusal. */
export const selectBusy = (snapshot: Snapshot): boolean =>
  snapshot.matches('submitting') || snapshot.matches('recheckingFailedCount');

/** The security-code field and its captcha image are shown. */
export const selectShowsSecurityCode = (snapshot: Snapshot): boolean => snapshot.context.securityCodeRequired;

/** The refusal itself: a new object for each refusal, so the form can react to each one. */
export const selectRefusal = (snapshot: Snapshot) => snapshot.context.refusal;

/** The captcha image being shown: the view asks for a new image whenever this changes. */
export const selectCaptchaDraw = (snapshot: Snapshot): number => snapshot.context.captchaDraw;

/** The server's message for the last refusal (wrong credentials or security code). */
export const selectRefusalMessage = (snapshot: Snapshot): string | null =>
  snapshot.context.refusal?.message ?? null;

/** Field errors of the last refusal, by field name. */
export const selectFieldErrors = (snapshot: Snapshot): Readonly<Record<string, string>> =>
  Object.fromEntries(
    (snapshot.context.refusal?.fieldErrors ?? []).map((e: FieldError) => [e.fieldName, e.message]),
  );

export const selectUnavailableMessage = (snapshot: Snapshot): string | null =>
  snapshot.context.unavailableMessage;

export const selectErrorMessage = (snapshot: Snapshot): string | null => snapshot.context.errorMessage;

export const selectSamlHandoff = (snapshot: Snapshot): SamlHandoffData | null =>
  snapshot.matches('postingSaml') ? snapshot.context.samlHandoff : null;
