// /profile/change-authenticator-app (section 2.3): the authenticator-app wizard (../app-wizard) with this wizard's id
// and route.
import { PROFILE_ROUTES } from '../../routes';
import { createAppWizardMachine } from '../app-wizard/app-wizard.machine';

export const changeAuthenticatorAppMachine = createAppWizardMachine({
  id: 'changeAuthenticatorApp',
  route: PROFILE_ROUTES.CHANGE_AUTHENTICATOR_APP,
});
