// /profile/enrol-sms (section 2.3), heading 'Enable SMS factor': the verified mobile becomes the
// SMS factor.
import { enrolSmsMachine } from '../../../../machines/profile/enrol-sms/enrol-sms.machine';
import { CodeWizardPage } from './CodeWizardPage';
import { enrolSmsActors } from './profile.actors';
import { profileToasts, wizardTexts } from './profile.texts';

export default function EnrolSmsPage() {
  return (
    <CodeWizardPage
      spec={{
        machine: enrolSmsMachine,
        actors: enrolSmsActors,
        heading: wizardTexts.headings.enrolSms,
        kind: 'mobile',
        toast: profileToasts.enabledSms,
      }}
    />
  );
}
