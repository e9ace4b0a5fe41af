import { Text } from '@mantine/core';
import { StatusPage } from './StatusPage';
import { sessionExpiredTexts } from './status.texts';

export default function SessionExpiredErrorPage() {
  return (
    <StatusPage heading={sessionExpiredTexts.heading}>
      <Text>{sessionExpiredTexts.body}</Text>
    </StatusPage>
  );
}
