// /profile/change-authenticator-app (section 2.3), heading 'Change authenticator app': editing
// mode, with the notice that the old app stops working once the new one is verified.
import { changeAuthenticatorAppMachine } from '../../../../machines/profile/change-authenticator-app/change-authenticator-app.machine';
import { AppWizardPage } from './AppWizardPage';
import { profileToasts, wizardTexts } from './profile.texts';

export default function ChangeAuthenticatorAppPage() {
  return (
    <AppWizardPage
      spec={{
        machine: changeAuthenticatorAppMachine,
        heading: wizardTexts.headings.changeAuthenticatorApp,
        toast: profileToasts.changedApp,
        editing: true,
      }}
    />
  );
}
