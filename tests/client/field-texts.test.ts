// One wording per shared field text (the spec gives none): the password mismatch and the mobile's
// international-format hint read the same on every screen that shows them.
import { describe, expect, it } from 'vitest';
import { changeExpiredPasswordTexts } from '../../src/client/flows/forced/change-expired-password/change-expired-password.texts';
import { factorEnrolmentTexts } from '../../src/client/flows/forced/factor-enrolment/factor-enrolment.texts';
import { passwordResetTexts } from '../../src/client/flows/password-reset/password-reset.texts';
import { screenTexts, wizardTexts } from '../../src/client/flows/profile/profile.texts';
import { registrationTexts } from '../../src/client/flows/registration/registration.texts';
import { fieldTexts } from '../../src/client/flows/shared/field.texts';

describe('shared field texts', () => {
  it('the password mismatch is one text in the reset, the expired change, the profile and registration', () => {
    expect(fieldTexts.passwordMismatch).toBe('The passwords do not match');
    expect([
      passwordResetTexts.setPassword.mismatch,
      changeExpiredPasswordTexts.mismatch,
      screenTexts.changePassword.mismatch,
      registrationTexts.setPassword.mismatch,
    ]).toEqual(Array(4).fill(fieldTexts.passwordMismatch));
  });

  it('the mobile hint is one text in forced enrolment (and registration) and the profile', () => {
    expect(fieldTexts.mobileHint).toBe('International format, e.g. +61 400 000 000');
    expect([factorEnrolmentTexts.selectSms.mobileHint, wizardTexts.mobileHint]).toEqual([
      fieldTexts.mobileHint,
      fieldTexts.mobileHint,
    ]);
  });
});
