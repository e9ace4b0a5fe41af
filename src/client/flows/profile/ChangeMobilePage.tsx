// /profile/change-mobile (section 2.3), heading 'Change mobile'.
import { changeMobileMachine } from '../../../../machines/profile/change-mobile/change-mobile.machine';
import { CodeWizardPage } from './CodeWizardPage';
import { changeMobileActors } from './profile.actors';
import { profileToasts, wizardTexts } from './profile.texts';

export default function ChangeMobilePage() {
  return (
    <CodeWizardPage
      spec={{
        machine: changeMobileMachine,
        actors: changeMobileActors,
        heading: wizardTexts.headings.changeMobile,
        kind: 'mobile',
        toast: profileToasts.mobile,
      }}
    />
  );
}
