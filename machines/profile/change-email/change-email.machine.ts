// /profile/change-email (section 2.3): the code wizard (../code-wizard) with this wizard's id and routes.
import { PROFILE_ROUTES, PROFILE_WIZARD_STEPS } from '../../routes';
import { createCodeWizardMachine } from '../code-wizard/code-wizard.machine';

export const changeEmailMachine = createCodeWizardMachine({
  id: 'changeEmail',
  route: PROFILE_ROUTES.CHANGE_EMAIL,
  verificationStep: PROFILE_WIZARD_STEPS.EMAIL_VERIFICATION,
});
