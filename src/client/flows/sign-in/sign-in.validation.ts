// Section 5 for the sign-in form: username required, max 50; password required; security code
// required while it is asked. The rules are the contract's, so the server agrees word for word.
import * as v from 'valibot';
import { limits, requiredSecret, requiredString } from '../../../contract/fields';

export interface SignInValues {
  username: string;
  password: string;
  captchaCode: string;
}

export type SignInField = keyof SignInValues;
export type SignInErrors = Partial<Record<SignInField, string>>;

/** In the order the fields appear, so focus goes to the first error. */
export const SIGN_IN_FIELDS: readonly SignInField[] = ['username', 'password', 'captchaCode'];

const rules = {
  username: requiredString(limits.signInUsername),
  password: requiredSecret(),
  captchaCode: requiredString(limits.captchaCode),
} satisfies Record<SignInField, v.GenericSchema>;

export function validateSignIn(
  values: SignInValues,
  { withSecurityCode }: { withSecurityCode: boolean },
): SignInErrors {
  const errors: SignInErrors = {};
  for (const field of SIGN_IN_FIELDS) {
    if (field === 'captchaCode' && !withSecurityCode) continue;
    const result = v.safeParse(rules[field], values[field]);
    if (!result.success) errors[field] = result.issues[0].message;
  }
  return errors;
}

export const firstErrorField = (errors: SignInErrors): SignInField | null =>
  SIGN_IN_FIELDS.find((field) => errors[field] !== undefined) ?? null;
