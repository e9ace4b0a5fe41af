// /profile/change-email (section 2.3), heading 'Change email'.
import { changeEmailMachine } from '../../../../machines/profile/change-email/change-email.machine';
import { CodeWizardPage } from './CodeWizardPage';
import { changeEmailActors } from './profile.actors';
import { profileToasts, wizardTexts } from './profile.texts';

export default function ChangeEmailPage() {
  return (
    <CodeWizardPage
      spec={{
        machine: changeEmailMachine,
        actors: changeEmailActors,
        heading: wizardTexts.headings.changeEmail,
        kind: 'email',
        toast: profileToasts.email,
      }}
    />
  );
}
