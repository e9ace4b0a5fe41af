// /access-requests/* (section 2.7; admins and VIEW_ACCESS_REQUESTS holders, see the guards): the
// list, one request with its tabs, and the app-code-and-code address that redirects to the id.
// The address is read here rather than through nested <Routes>, which would add react-router's
// element routing to the framework chunk the sign-in page loads.
import { Container, Stack, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ACCESS_REQUESTS_ROUTE, NOT_FOUND_ROUTE } from '../app/routes';
import { accessRequestsTexts as t } from '../flows/access-requests/access-requests.texts';
import { RequestDetail, ResolveRequest, type RequestTab } from '../flows/access-requests/RequestDetail';
import { RequestList } from '../flows/access-requests/RequestList';

type Place =
  | { kind: 'list' }
  | { kind: 'detail'; id: string; tab: RequestTab }
  | { kind: 'resolve'; appCode: string; code: string }
  | { kind: 'unknown' };

// The child segments of /access-requests/{id}. None can be the {code} of the app-code-and-code
// address: request codes are 'AR-' and eight capitals or digits (AccessRequestService.newCode), so
// '{appCode}/history' is always the tab, whatever the app code (an app coded 'history' still resolves
// as '/access-requests/history/AR-...').
const TAB_SEGMENTS: Record<string, RequestTab> = {
  organisations: 'organisations',
  history: 'history',
  'api-calls': 'api-calls',
};

/** What an address under /access-requests shows. */
export function placeOf(pathname: string): Place {
  const rest = pathname.slice(ACCESS_REQUESTS_ROUTE.length).split('/').filter(Boolean);
  let segments: string[];
  try {
    segments = rest.map(decodeURIComponent);
  } catch {
    return { kind: 'unknown' };
  }
  const [first, second, ...more] = segments;
  if (more.length > 0) return { kind: 'unknown' };
  if (first === undefined) return { kind: 'list' };
  // The bare address shows the default tab, organisations (the list's links and the redirect of
  // the app-code-and-code address lead there).
  if (second === undefined) return { kind: 'detail', id: first, tab: 'organisations' };
  const tab = Object.hasOwn(TAB_SEGMENTS, second) ? TAB_SEGMENTS[second] : undefined;
  if (tab) return { kind: 'detail', id: first, tab };
  return { kind: 'resolve', appCode: first, code: second };
}

function NotFound() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(NOT_FOUND_ROUTE, { replace: true });
  }, [navigate]);
  return null;
}

function Place() {
  const place = placeOf(useLocation().pathname);
  switch (place.kind) {
    case 'list':
      return <RequestList />;
    case 'detail':
      // Keyed by id: another request starts its own machine; the tabs of one share it.
      return <RequestDetail key={place.id} id={place.id} tab={place.tab} />;
    case 'resolve':
      return (
        <ResolveRequest key={`${place.appCode}/${place.code}`} appCode={place.appCode} code={place.code} />
      );
    case 'unknown':
      return <NotFound />;
  }
}

export default function AccessRequestsPage() {
  return (
    <Container size="lg" px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{t.heading}</Title>
        <Place />
      </Stack>
    </Container>
  );
}
