// /profile/enrol-authenticator-app (section 2.3), heading 'Enable authenticator app factor'.
import { enrolAuthenticatorAppMachine } from '../../../../machines/profile/enrol-authenticator-app/enrol-authenticator-app.machine';
import { AppWizardPage } from './AppWizardPage';
import { profileToasts, wizardTexts } from './profile.texts';

export default function EnrolAuthenticatorAppPage() {
  return (
    <AppWizardPage
      spec={{
        machine: enrolAuthenticatorAppMachine,
        heading: wizardTexts.headings.enrolAuthenticatorApp,
        toast: profileToasts.enabledApp,
        editing: false,
      }}
    />
  );
}
