// Addresses of the admin's identity screens (a module of its own: the header's search bar needs
// them without loading the screens).
import { ADMIN_ROUTE } from '../../app/routes';

export const ADMIN_IDENTITIES_ROUTE = `${ADMIN_ROUTE}/identities`;

/** The search results for `query` (all identities when it is blank). */
export const identitySearchPath = (query: string) =>
  query.trim() === ''
    ? ADMIN_IDENTITIES_ROUTE
    : `${ADMIN_IDENTITIES_ROUTE}?${new URLSearchParams({ query: query.trim() })}`;

export const identityPagePath = (id: string) => `${ADMIN_IDENTITIES_ROUTE}/${encodeURIComponent(id)}`;

/** The search an address's query string asks for. */
export const queryOf = (search: string) => (new URLSearchParams(search).get('query') ?? '').trim();
