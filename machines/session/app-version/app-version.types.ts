export interface AppVersionContext {
  /** The version the page was loaded with: the first one observed. */
  loadedVersion: string | null;
  /** The newest version a response announced. */
  latestVersion: string | null;
}

export type AppVersionEvent =
  /** A server response carried `x-application-version`. */
  | { type: 'version.observed'; version: string }
  /** The user closed the 'Update available' toast. */
  | { type: 'user.dismiss' }
  /** The user chose 'Reload page'. */
  | { type: 'user.reload' };
