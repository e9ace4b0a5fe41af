// /profile/enrol-authenticator-app (section 2.3): the authenticator-app wizard (../app-wizard) with this wizard's id
// and route.
import { PROFILE_ROUTES } from '../../routes';
import { createAppWizardMachine } from '../app-wizard/app-wizard.machine';

export const enrolAuthenticatorAppMachine = createAppWizardMachine({
  id: 'enrolAuthenticatorApp',
  route: PROFILE_ROUTES.ENROL_AUTHENTICATOR_APP,
});
