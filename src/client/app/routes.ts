// Every route the portal mounts. The routes machines name come from machines/routes.ts; the
// routes only the shell knows (footer pages, admin base) are added here.
export * from '../../../machines/routes';

export const ADMIN_ROUTE = '/admin';
export const PRIVACY_STATEMENT_ROUTE = '/privacy-statement';
export const WEBSITE_TERMS_ROUTE = '/website-terms';
