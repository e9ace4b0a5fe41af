// The applications page (section 2.3): a card per accessible application, or the empty text.
import '@mantine/core/styles/Card.css';
import { Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { HANDOFF_APP_PARAM, targetFromSearch, useHandoff, type HandoffHandler } from '../app/handoff';
import { PageLoader } from '../app/shell/PageLoader';
import { useServices } from '../app/services';
import { useAsync } from '../app/use-async';
import { ApplicationCard } from './ApplicationCard';
import { applicationsTexts } from './applications.texts';
import './pages.css';

export interface ApplicationsPageProps {
  /** The handoff; defaults to HandoffContext's, which the handoff issue provides. */
  onHandoff?: HandoffHandler;
}

export default function ApplicationsPage({ onHandoff }: ApplicationsPageProps) {
  const services = useServices();
  const contextHandoff = useHandoff();
  const handoff = onHandoff ?? contextHandoff;
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
      {apps.status === 'loading' && <PageLoader />}
      {apps.status === 'done' &&
        (apps.value.length === 0 ? (
          <Text>{applicationsTexts.none}</Text>
        ) : (
          <ul className="portal-card-grid">
            {apps.value.map((target) => (
              <li key={`${target.appCode}:${target.facilityCode ?? ''}`}>
                <ApplicationCard target={target} onHandoff={handoff} />
              </li>
            ))}
          </ul>
        ))}
    </Stack>
  );
}
