// The api module: machines' provided actors and the app's services call the server only through it.
export { ApiError, acceptedAnswer, isApiError, isRefusal, type ApiErrorKind } from './api-error';
export { request, type CallOptions, type RequestOptions } from './request';
export { globalActionFor, type GlobalAction } from './global-handling';
export { HTTP_TIMEOUT_MS, setApiFetch } from './http';
export { onApplicationVersion } from './version';
export * from './session';
export * from './forced';
export * from './handoff';
export * from './registration';
export * from './merge';
export * from './password-reset';
