// /profile/enrol-sms (section 2.3): the code wizard (../code-wizard) with this wizard's id and routes.
import { PROFILE_ROUTES, PROFILE_WIZARD_STEPS } from '../../routes';
import { createCodeWizardMachine } from '../code-wizard/code-wizard.machine';

export const enrolSmsMachine = createCodeWizardMachine({
  id: 'enrolSms',
  route: PROFILE_ROUTES.ENROL_SMS,
  verificationStep: PROFILE_WIZARD_STEPS.SMS_VERIFICATION,
});
