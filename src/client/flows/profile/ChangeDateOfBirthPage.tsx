// /profile/change-date-of-birth (section 2.3): a single-step screen.
import { ProfileFormPage } from './ProfileFormPage';
import { profileFormScreens } from './profile-form.screens';

export default function ChangeDateOfBirthPage() {
  return <ProfileFormPage spec={profileFormScreens.changeDateOfBirth} />;
}
