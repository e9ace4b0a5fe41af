// The applications page (section 2.3): a card per accessible application (one per facility), or the
// empty text. A left click hands off through the handoff flow; a card opened in a new window names
// its target in the address, and the page there hands off to it.
import '@mantine/core/styles/Card.css';
import { Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { HANDOFF_APP_PARAM, targetFromSearch } from '../app/handoff';
import { PageLoader } from '../app/shell/PageLoader';
import { useServices } from '../app/services';
import { useAsync } from '../app/use-async';
import { useHandoffFlow } from '../flows/handoff/use-handoff-flow';
import { ApplicationCard } from './ApplicationCard';
import { applicationsTexts } from './applications.texts';
import './pages.css';

const targetKey = (target: { appCode: string; facilityCode: string | null }) =>
  `${target.appCode}:${target.facilityCode ?? ''}`;

export default function ApplicationsPage() {
  const services = useServices();
  const { handoff, busyTarget, postForm } = useHandoffFlow();
  const load = useCallback((signal: AbortSignal) => services.getAccessibleApps({ signal }), [services]);
  const apps = useAsync(load);
  const [search, setSearch] = useSearchParams();

  // A card opened in a new window names its target in the address: hand off to it, once.
  useEffect(() => {
    if (apps.status !== 'done' || !search.has(HANDOFF_APP_PARAM)) return;
    const target = targetFromSearch(search, apps.value);
    setSearch({}, { replace: true });
    if (target) handoff(target);
  }, [apps, search, setSearch, handoff]);

  return (
    <Stack gap="lg">
      <Title order={1}>{applicationsTexts.heading}</Title>
      {postForm ??
        (apps.status === 'loading' ? (
          <PageLoader />
        ) : apps.status === 'done' ? (
          apps.value.length === 0 ? (
            <Text>{applicationsTexts.none}</Text>
          ) : (
            <ul className="portal-card-grid">
              {apps.value.map((target) => (
                <li key={targetKey(target)}>
                  <ApplicationCard
                    target={target}
                    onHandoff={handoff}
                    busy={busyTarget !== null && targetKey(busyTarget) === targetKey(target)}
                  />
                </li>
              ))}
            </ul>
          )
        ) : null)}
    </Stack>
  );
}
