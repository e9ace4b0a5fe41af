// /profile/unenrol-authenticator-app (section 2.3): a single-step screen.
import { ProfileFormPage } from './ProfileFormPage';
import { profileFormScreens } from './profile-form.screens';

export default function UnenrolAuthenticatorAppPage() {
  return <ProfileFormPage spec={profileFormScreens.unenrolAuthenticatorApp} />;
}
