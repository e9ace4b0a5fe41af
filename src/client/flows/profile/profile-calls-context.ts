// The profile page's own calls (facts, trusted devices, sign out of all devices) behind a context,
// so page tests give fakes; the app uses the real ones.
import { createContext, useContext } from 'react';
import { profileCalls } from './profile.actors';

export type ProfileCalls = Pick<
  typeof profileCalls,
  'loadFacts' | 'deleteTrustedDevice' | 'clearTrustedDevices' | 'accessibleApps' | 'signOutOfAllDevices'
>;

export const ProfileCallsContext = createContext<ProfileCalls>(profileCalls);

export const useProfileCalls = (): ProfileCalls => useContext(ProfileCallsContext);
