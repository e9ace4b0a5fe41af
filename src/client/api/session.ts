// One function per foundation call of src/contract/session.ts, each taking `{ signal }` last, so a
// machine's fromPromise actor can pass its own signal straight through.
import type { LoginRequest, PropertyName } from '../../contract/session';
import { sessionCalls } from '../../contract/session';
import { request, type CallOptions } from './request';

export const getContext = ({ signal }: CallOptions = {}) => request(sessionCalls.getContext, { signal });

export const getCurrentUser = ({ signal }: CallOptions = {}) =>
  request(sessionCalls.getCurrentUser, { signal });

export const getEnvironment = ({ signal }: CallOptions = {}) =>
  request(sessionCalls.getEnvironment, { signal });

export const getFrameOrigin = ({ signal }: CallOptions = {}) =>
  request(sessionCalls.getFrameOrigin, { signal });

export const getRealmAuthEnabled = ({ realm }: { realm: string }, { signal }: CallOptions = {}) =>
  request(sessionCalls.getRealmAuthEnabled, { params: { realm }, signal });

export const getEnum = ({ name }: { name: string }, { signal }: CallOptions = {}) =>
  request(sessionCalls.getEnum, { params: { name }, signal });

export const getProperty = ({ name }: { name: PropertyName }, { signal }: CallOptions = {}) =>
  request(sessionCalls.getProperty, { params: { name }, signal });

export const getTrustedDevicePeriod = ({ signal }: CallOptions = {}) =>
  request(sessionCalls.getTrustedDevicePeriod, { signal });

/** 2xx: the authentication outcome. 503 (accepted) and 422 rejects with handled = false. */
export const login = (body: LoginRequest, { signal }: CallOptions = {}) =>
  request(sessionCalls.login, { body, signal });

export const getFailedAuthCount = ({ username }: { username?: string }, { signal }: CallOptions = {}) =>
  request(sessionCalls.getFailedAuthCount, { query: { username }, signal });

export const logout = ({ signal }: CallOptions = {}) => request(sessionCalls.logout, { signal });

export const getReenterPasswordExpired = ({ signal }: CallOptions = {}) =>
  request(sessionCalls.getReenterPasswordExpired, { signal });

export const reenterPassword = (body: { currentPassword: string }, { signal }: CallOptions = {}) =>
  request(sessionCalls.reenterPassword, { body, signal });

export const singleLogout = (body: { ticketCode?: string | null }, { signal }: CallOptions = {}) =>
  request(sessionCalls.singleLogout, { body, signal });

export const getAccessibleApps = ({ signal }: CallOptions = {}) =>
  request(sessionCalls.getAccessibleApps, { signal });

export const getApp = ({ appCode }: { appCode: string }, { signal }: CallOptions = {}) =>
  request(sessionCalls.getApp, { params: { appCode }, signal });

/** Section 7's GET /captcha.jpg?{timestamp}: an image, outside /rest/ui/. */
export const captchaImageUrl = (timestamp: number): string => `/captcha.jpg?${timestamp}`;
