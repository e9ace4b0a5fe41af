import { Text } from '@mantine/core';
import { SIGN_IN_ROUTE } from '../app/routes';
import { StatusPage } from './StatusPage';
import { permissionDeniedTexts } from './status.texts';

export default function PermissionDeniedPage() {
  return (
    <StatusPage heading={permissionDeniedTexts.heading} backFallback={SIGN_IN_ROUTE}>
      <Text>{permissionDeniedTexts.body}</Text>
    </StatusPage>
  );
}
