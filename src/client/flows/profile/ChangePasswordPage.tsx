// /profile/change-password (section 2.3): a single-step screen.
import { ProfileFormPage } from './ProfileFormPage';
import { profileFormScreens } from './profile-form.screens';

export default function ChangePasswordPage() {
  return <ProfileFormPage spec={profileFormScreens.changePassword} />;
}
