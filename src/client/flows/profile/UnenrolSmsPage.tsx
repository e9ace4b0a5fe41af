// /profile/unenrol-sms (section 2.3): a single-step screen.
import { ProfileFormPage } from './ProfileFormPage';
import { profileFormScreens } from './profile-form.screens';

export default function UnenrolSmsPage() {
  return <ProfileFormPage spec={profileFormScreens.unenrolSms} />;
}
