import { Text } from '@mantine/core';
import { SIGN_IN_ROUTE } from '../app/routes';
import { StatusPage } from './StatusPage';
import { notFoundTexts } from './status.texts';

export default function NotFoundPage() {
  return (
    <StatusPage heading={notFoundTexts.heading} backFallback={SIGN_IN_ROUTE}>
      <Text>{notFoundTexts.body}</Text>
    </StatusPage>
  );
}
