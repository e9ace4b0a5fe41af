// The admin's identity screens as one lazy chunk of the admin page: their modules (the history
// view, the sign-out modal) load when an identity screen is first opened.
export { IdentityRolesScreen } from './IdentityRolesScreen';
export { IdentityScreen } from './IdentityScreen';
export { IdentitySearchScreen } from './IdentitySearchScreen';
