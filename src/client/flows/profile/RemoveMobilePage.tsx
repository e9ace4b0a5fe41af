// /profile/remove-mobile (section 2.3): a single-step screen.
import { ProfileFormPage } from './ProfileFormPage';
import { profileFormScreens } from './profile-form.screens';

export default function RemoveMobilePage() {
  return <ProfileFormPage spec={profileFormScreens.removeMobile} />;
}
