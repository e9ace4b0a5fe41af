// /single-sign-on-error (section 2.1): the application a single sign-on could not hand off to, by the
// name the session keeps (the route's loader sends anyone without one to '/').
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { isSignedIn, landingRoute } from '../app/guards/guards';
import { useSession } from '../app/session';
import { singleSignOnErrorTexts as t } from './single-sign-on-error.texts';
import { StatusPage } from './StatusPage';

export default function SingleSignOnErrorPage() {
  const { currentUser, singleSignOnAppName } = useSession();
  return (
    <StatusPage heading={t.heading}>
      {singleSignOnAppName && <Text>{t.noAccess(singleSignOnAppName)}</Text>}
      {currentUser && isSignedIn(currentUser) && (
        <Text>
          <Anchor component={Link} to={landingRoute(currentUser)}>
            {t.continueToPortal}
          </Anchor>
        </Text>
      )}
    </StatusPage>
  );
}
